import { informationPage, ShopDetails } from '@/components/legal/legal-page';

// The same for every visitor and no database read: rendered once per language, then served from
// cache. Re-rendered at most every five minutes, so changed SHOP_* settings show soon after a restart.
export const revalidate = 300;

/** What we keep about shoppers, for how long, and why. Texts: `Legal.privacy` in messages/<locale>.json. */
const privacy = informationPage('privacy', () => ({ controller: <ShopDetails show={['legalName', 'address', 'email']} /> }));

export const generateMetadata = privacy.generateMetadata;
export default privacy.Page;
