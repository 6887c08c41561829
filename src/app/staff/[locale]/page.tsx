import { getTranslations } from 'next-intl/server';
import { db } from '@/server/db/client';
import { orderBoard, type BoardOrder } from '@/server/orders/board';
import { canvasOf } from '@/shared/canvas';
import { orderStatuses, type OrderStatus } from '@/shared/orders';
import { requireStaff, staffLocale } from '../_lib/auth';
import { staffPageTitle } from '../_lib/metadata';
import { age, count, dateTime, money } from '../_lib/format';
import { StorageMark } from './storage-mark';
import styles from './staff.module.css';

interface Props {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ status?: string; q?: string; page?: string }>;
}

export const dynamic = 'force-dynamic';

export const generateMetadata = staffPageTitle('Staff.board');

/** `70 × 50` for a landscape 50x70: the canvas as the painter sets it up. */
function sizeAsHung(order: BoardOrder): string {
  const { widthCm, heightCm } = canvasOf(order.size, order.orientation);
  return `${widthCm} × ${heightCm}`;
}

const isStatus = (value: string | undefined): value is OrderStatus => (orderStatuses as readonly string[]).includes(value ?? '');

/** The orders board: a tab per status with its count, a search, newest first, a page at a time. */
export default async function OrdersBoard({ params, searchParams }: Props) {
  const locale = staffLocale((await params).locale);
  const query = await searchParams;
  const status = isStatus(query.status) ? query.status : undefined;
  const q = (query.q ?? '').trim().slice(0, 200);
  const page = Math.min(100_000, Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1));
  const href = (over: { status?: OrderStatus | null; page?: number; q?: string }) => {
    const s = over.status === null ? undefined : (over.status ?? status);
    const text = over.q ?? q;
    const params = new URLSearchParams();
    if (s) params.set('status', s);
    if (text) params.set('q', text);
    if (over.page && over.page > 1) params.set('page', String(over.page));
    const search = params.toString();
    return `/staff/${locale}${search ? `?${search}` : ''}`;
  };
  await requireStaff(locale, href({ page }));

  const [t, ts] = await Promise.all([getTranslations({ locale, namespace: 'Staff.board' }), getTranslations({ locale, namespace: 'Staff' })]);
  const board = await orderBoard(db(), { status, q: q || undefined, page, locale });
  const pages = Math.max(1, Math.ceil(board.total / board.pageSize));
  const now = new Date();

  const item = (order: BoardOrder) =>
    order.kind === 'reproduction'
      ? (order.artworkTitle ?? order.artworkSlug ?? '')
      : t('customItem', { style: ts(`style.${order.style ?? 'classic'}`), subjects: order.subjects ?? 1 });

  return (
    <div className={styles.page}>
      <div className={styles.pageHead}>
        <h1 className={styles.title}>{t('title')}</h1>
        <form method="get" action={`/staff/${locale}`} className={styles.search} role="search">
          {status && <input type="hidden" name="status" value={status} />}
          <label htmlFor="board-search" className={styles.visuallyHidden}>
            {t('searchLabel')}
          </label>
          <input id="board-search" name="q" type="search" defaultValue={q} placeholder={t('searchPlaceholder')} maxLength={200} />
          <button type="submit" className={styles.primaryButton}>
            {t('searchSubmit')}
          </button>
          {q && (
            <a href={href({ q: '', page: 1 })} className={styles.quietLink}>
              {t('clearSearch')}
            </a>
          )}
        </form>
      </div>

      <StorageMark locale={locale} />

      <nav aria-label={t('tabsLabel')}>
        <ul className={styles.tabs}>
          <li>
            <a href={href({ status: null, page: 1 })} aria-current={!status ? 'page' : undefined} className={styles.tab}>
              {t('allTab')} <span className={styles.tabCount}>{count(board.all, locale)}</span>
            </a>
          </li>
          {orderStatuses.map((s) => (
            <li key={s}>
              <a href={href({ status: s, page: 1 })} aria-current={status === s ? 'page' : undefined} className={styles.tab} data-status={s}>
                {ts(`status.${s}`)} <span className={styles.tabCount}>{count(board.counts[s], locale)}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <p className={styles.summary} role="status">
        {q ? t('foundFor', { count: board.total, q }) : t('found', { count: board.total })}
      </p>

      {board.items.length === 0 ? (
        <p className={styles.empty}>{q ? t('emptySearch') : t('empty')}</p>
      ) : (
        <table className={styles.board}>
          <caption className={styles.visuallyHidden}>{status ? ts(`status.${status}`) : t('allTab')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('columns.code')}</th>
              <th scope="col">{t('columns.item')}</th>
              <th scope="col">{t('columns.total')}</th>
              <th scope="col">{t('columns.customer')}</th>
              <th scope="col">{t('columns.country')}</th>
              <th scope="col">{t('columns.age')}</th>
              <th scope="col">{t('columns.status')}</th>
            </tr>
          </thead>
          <tbody>
            {board.items.map((order) => (
              <tr key={order.code} data-code={order.code}>
                <td data-label={t('columns.code')}>
                  <a href={`/staff/${locale}/orders/${order.code}`} className={styles.code}>
                    {order.code}
                  </a>
                </td>
                <td data-label={t('columns.item')}>
                  {/* One child per cell: on phones each cell is a two-column grid (label, content). */}
                  <div>
                    <span className={styles.kind}>{ts(`kind.${order.kind}`)}</span> {item(order)}
                    <span className={styles.sub}>{t('sizeFrame', { size: sizeAsHung(order), frame: ts(`frame.${order.frame}`) })}</span>
                  </div>
                </td>
                <td data-label={t('columns.total')} className={styles.number}>
                  {money(order.total, locale)}
                </td>
                <td data-label={t('columns.customer')}>
                  <div>
                    {order.customer.name}
                    <span className={styles.sub}>{order.customer.email}</span>
                    {order.partner && (
                      <span className={styles.sub} data-testid="board-partner">
                        {t('viaPartner', { partner: order.partner })}
                      </span>
                    )}
                    {order.basket && (
                      <a href={`/staff/${locale}?q=${order.basket.code}`} className={styles.sub} data-testid="board-basket">
                        {t('inBasket', { code: order.basket.code, count: order.basket.orders })}
                      </a>
                    )}
                  </div>
                </td>
                <td data-label={t('columns.country')}>{order.customer.country}</td>
                <td data-label={t('columns.age')}>
                  <time dateTime={order.createdAt} title={dateTime(order.createdAt, locale)}>
                    {age(order.createdAt, locale, now)}
                  </time>
                </td>
                <td data-label={t('columns.status')}>
                  <div>
                    <span className={styles.status} data-status={order.status}>
                      {ts(`status.${order.status}`)}
                    </span>
                    {order.customerAnswered && (
                      <span className={styles.answeredMark} data-testid="board-answered">
                        {t(`answered.${order.sketchStatus === 'approved' ? 'approved' : 'changes_requested'}`)}
                      </span>
                    )}
                    {/* What the studio must know about the money before working on: a dispute holds it, a refund or a double payment asks a look. */}
                    {order.payment.disputed && (
                      <span className={styles.moneyMark} data-testid="board-disputed">
                        {ts('payment.board.disputed')}
                      </span>
                    )}
                    {(order.payment.state === 'processing' || order.payment.state === 'partially_refunded' || order.payment.state === 'refunded') && (
                      <span className={styles.sub} data-testid="board-payment">
                        {ts(`payment.states.${order.payment.state}`)}
                      </span>
                    )}
                    {order.payment.doublePayments > 0 && (
                      <span className={styles.sub} data-testid="board-double-payment">
                        {ts('payment.board.doublePayment')}
                      </span>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {pages > 1 && (
        <nav aria-label={t('pagesLabel')} className={styles.pager}>
          {board.page > 1 ? (
            <a href={href({ page: board.page - 1 })} rel="prev">
              {t('previous')}
            </a>
          ) : (
            <span aria-hidden="true" />
          )}
          <span>{t('pageOf', { page: board.page, pages })}</span>
          {board.page < pages ? (
            <a href={href({ page: board.page + 1 })} rel="next">
              {t('next')}
            </a>
          ) : (
            <span aria-hidden="true" />
          )}
        </nav>
      )}
    </div>
  );
}
