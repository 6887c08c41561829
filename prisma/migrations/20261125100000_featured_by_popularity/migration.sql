-- Hand-written: the featured works, best known first (the grid's "featured" filter,
-- /v1/artworks?featured=1). The grid walked the popularity index of every published work and
-- checked each row for the flag: 22–24 ms at 100,000 works of which 1 % are featured
-- (docs/benchmarks/search-sql-2026-11-25.md). A partial index, like artworks_published_by_popularity,
-- which Prisma's schema cannot state.
CREATE INDEX artworks_featured_by_popularity ON artworks (popularity DESC, id) WHERE status = 'published' AND featured;
