-- Hand-written: search ranks exact titles, then titles starting with the words. Under a C.UTF-8
-- collation a plain btree cannot serve `LIKE 'prefix%'`; text_pattern_ops serves both that and
-- equality, so the ranking reads two small index ranges instead of folding every match's titles.
DROP INDEX IF EXISTS artwork_texts_title_folded;
CREATE INDEX artwork_texts_title_folded ON artwork_texts (shop_fold(title) text_pattern_ops);
