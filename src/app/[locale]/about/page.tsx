import { JsonLd } from '@/components/json-ld';
import { informationPage, ShopDetails } from '@/components/legal/legal-page';
import { shopOrganization } from '@/lib/structured-data';
import { env, publicBaseUrl } from '@/server/env';
import { shopIdentity } from '@/server/shop/identity';

// The same for every visitor and no database read: rendered once per language, then served from
// cache. Re-rendered at most every five minutes, so changed SHOP_* settings show soon after a restart.
export const revalidate = 300;

/** Who we are, and how to reach the studio. Texts: `Legal.about` in messages/<locale>.json. */
const about = informationPage('about', (locale) => {
  const identity = shopIdentity(env());
  const contact = (
    <>
      <ShopDetails show={['legalName', 'address', 'email', 'phone']} />
      {/* Search engines learn who runs the shop, but never a demonstration's example values. */}
      {identity.demo ? null : <JsonLd data={shopOrganization({ base: publicBaseUrl(env()).replace(/\/$/, ''), locale, identity })} />}
    </>
  );
  return { contact };
});

export const generateMetadata = about.generateMetadata;
export default about.Page;
