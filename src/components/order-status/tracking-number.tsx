import { carrierName, type Carrier } from '@/shared/carriers';
import css from './order-status.module.css';

interface Props {
  number: string;
  carrier: Carrier | null;
  /** The carrier's page for the number (OrderView.trackingUrl), when both are known. */
  href: string | null;
  locale: string;
}

/** A tracking number, never broken mid-number, linked to the carrier's page for it when the studio named the carrier. */
export function TrackingNumber({ number, carrier, href, locale }: Props) {
  if (!carrier || !href) return <span className={css.tracking}>{number}</span>;
  return (
    <>
      <a href={href} className={css.tracking} data-testid="tracking-link">
        {number}
      </a>{' '}
      <span className={css.carrier}>{carrierName(carrier, locale)}</span>
    </>
  );
}
