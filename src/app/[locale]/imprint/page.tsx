import { informationPage, ShopDetails } from '@/components/legal/legal-page';

// The same for every visitor and no database read: rendered once per language, then served from
// cache. Re-rendered at most every five minutes, so changed SHOP_* settings show soon after a restart.
export const revalidate = 300;

/** Who runs the shop (the legal notice). Texts: `Legal.imprint` in messages/<locale>.json. */
const imprint = informationPage('imprint', () => ({ provider: <ShopDetails show={['legalName', 'address', 'email', 'phone', 'vatId', 'responsible']} /> }));

export const generateMetadata = imprint.generateMetadata;
export default imprint.Page;
