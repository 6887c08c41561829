-- A catalog text is in one of the six catalog languages (src/shared/locales.ts `catalogLocales`;
-- Vietnamese pages read the English texts). Pages and answers look a text up by the exact locale,
-- so a row under any other value ("EN", "en-US", "vi") would be kept and never shown.
ALTER TABLE "artwork_texts" ADD CONSTRAINT "artwork_texts_locale_check" CHECK ("locale" IN ('en', 'es', 'fr', 'de', 'it', 'ja'));
ALTER TABLE "artist_texts" ADD CONSTRAINT "artist_texts_locale_check" CHECK ("locale" IN ('en', 'es', 'fr', 'de', 'it', 'ja'));
ALTER TABLE "taxon_texts" ADD CONSTRAINT "taxon_texts_locale_check" CHECK ("locale" IN ('en', 'es', 'fr', 'de', 'it', 'ja'));
