import { informationPage, ShopDetails } from '@/components/legal/legal-page';

// The same for every visitor and no database read: rendered once per language, then served from
// cache. Re-rendered at most every five minutes, so changed SHOP_* settings show soon after a restart.
export const revalidate = 300;

/** Returns, withdrawal, and what we do when something is wrong. Texts: `Legal.returns` in messages/<locale>.json. */
const returns = informationPage('returns', () => ({ how: <ShopDetails show={['legalName', 'address', 'email']} /> }));

export const generateMetadata = returns.generateMetadata;
export default returns.Page;
