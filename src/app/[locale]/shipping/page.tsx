import { informationPage, LeadTimeTable } from '@/components/legal/legal-page';

// The same for every visitor and no database read: rendered once per language, then served from
// cache. Re-rendered at most every five minutes, so changed SHOP_* settings show soon after a restart.
export const revalidate = 300;

/** How long a painting takes, and how it travels. Texts: `Legal.shipping` in messages/<locale>.json. */
const shipping = informationPage('shipping', (locale) => ({ production: <LeadTimeTable locale={locale} /> }));

export const generateMetadata = shipping.generateMetadata;
export default shipping.Page;
