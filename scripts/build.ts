/**
 * `npm run build`: the production build `npm start` would make (the launcher and the
 * site, stamped with the sources they were made from), for an image or a server that serves it
 * with `npm start -- --prebuilt`.
 */
import { buildSite } from './lib/site-build';

await buildSite();
