import { useTranslations } from 'next-intl';
import { Link } from '@/i18n/navigation';

/** 404 inside a language: a `notFound()` from any page, or an unknown path (see `[...rest]`). */
export default function LocaleNotFound() {
  const t = useTranslations('NotFound');
  return (
    <div className="container not-found">
      <p className="eyebrow">{t('eyebrow')}</p>
      <h1 className="not-found__title">{t('title')}</h1>
      <p className="not-found__body">{t('body')}</p>
      <Link className="button" href="/">
        {t('back')}
      </Link>
    </div>
  );
}
