import 'server-only';
import { logger } from '@/server/logger';

/**
 * The pages that show the gallery (the home page, the custom painting page and the showcase page) are cached for
 * `revalidate = 300` seconds. After a change, this instance drops its copies at once (a best
 * effort: outside a Next request, in tests or scripts, there is nothing to drop); other instances
 * show the change at their next regeneration, within those 300 seconds.
 */
export async function refreshGalleryPages(): Promise<void> {
  try {
    const { revalidatePath } = await import('next/cache');
    revalidatePath('/[locale]', 'page');
    revalidatePath('/[locale]/custom', 'page');
    revalidatePath('/[locale]/showcase', 'page');
  } catch (error) {
    logger.debug({ err: error }, 'showcase: the gallery pages were not revalidated here (not in a Next request)');
  }
}
