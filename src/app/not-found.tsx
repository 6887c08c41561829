import './globals.css';
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { defaultLocale } from '@/shared/locales';

// Paths outside every locale (`/xx/`, an unknown language prefix) end here, so this page is a whole
// document in English; its link to `/` sends the visitor on to their own language.

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations({ locale: defaultLocale, namespace: 'NotFound' });
  return { title: `${t('metaTitle')} · Atelier Prints`, icons: { icon: '/favicon.svg' } };
}

export default async function RootNotFound() {
  const t = await getTranslations({ locale: defaultLocale, namespace: 'NotFound' });
  const layout = await getTranslations({ locale: defaultLocale, namespace: 'Layout' });
  return (
    <html lang={defaultLocale}>
      <body>
        <div className="page">
          <header className="site-header">
            <div className="container site-header__inner">
              <a className="brand" href="/">
                <span className="brand__mark" aria-hidden="true" />
                <span className="brand__name">{layout('shopName')}</span>
              </a>
            </div>
          </header>
          <main id="content" className="container not-found">
            <p className="eyebrow">{t('eyebrow')}</p>
            <h1 className="not-found__title">{t('title')}</h1>
            <p className="not-found__body">{t('body')}</p>
            <a className="button" href="/">
              {t('back')}
            </a>
          </main>
        </div>
      </body>
    </html>
  );
}
