import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { staffLocale } from './auth';

/** The dashboard pages whose title is their namespace's `title`. */
type TitledPage = 'Staff.board' | 'Staff.catalog' | 'Staff.partners' | 'Staff.signIn';

/** A dashboard page's `generateMetadata`: its title in the staff member's language. */
export function staffPageTitle(namespace: TitledPage) {
  return async ({ params }: { params: Promise<{ locale: string }> }): Promise<Metadata> => {
    const t = await getTranslations({ locale: staffLocale((await params).locale), namespace });
    return { title: t('title') };
  };
}
