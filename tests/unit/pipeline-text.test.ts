import { describe, expect, test } from 'vitest';
import { retryAfterMs } from '@/server/integrations/http';
import { chooseDimensions, commonsFile, currentCollections, toCentimetres, yearOf } from '@/server/integrations/wikidata';
import { chooseWorks } from '@/server/pipeline/publish';
import { slugify, uniqueSlug } from '@/server/pipeline/slug';
import { templateStory, type StoryFacts } from '@/server/pipeline/stories';
import { stripDisambiguation } from '@/server/pipeline/titles';

describe('units from Wikidata are converted to centimetres', () => {
  test.each([
    ['73.7', 'Q174728', 73.7], // centimetre
    ['+1000', 'Q174789', 100], // millimetre (Wikidata writes a sign)
    ['1.2', 'Q11573', 120], // metre
    ['40', 'Q218593', 101.6], // inch
    ['36.25', 'Q218593', 92.1],
    ['3', 'Q3710', 91.4], // foot
  ])('%s %s → %s cm', (amount, unit, cm) => expect(toCentimetres(amount, unit)).toBe(cm));

  test('an unknown unit, a missing or a non-positive amount give no size', () => {
    expect(toCentimetres('3', 'Q11570')).toBeNull(); // kilogram
    expect(toCentimetres(undefined, undefined)).toBeNull();
    expect(toCentimetres('0', 'Q174728')).toBeNull();
  });

  test('height and width: best rank per side, one unit for both, both or neither', () => {
    expect(chooseDimensions('NormalRank|90|Q174728 PreferredRank|100|Q174728', 'NormalRank|70|Q174728')).toEqual({ heightCm: 100, widthCm: 70 });
    expect(chooseDimensions('NormalRank|20|Q218593 NormalRank|50.5|Q174728', 'NormalRank|16|Q218593 NormalRank|40.2|Q174728')).toEqual({ heightCm: 50.5, widthCm: 40.2 });
    expect(chooseDimensions('NormalRank|20|Q218593', 'NormalRank|40|Q174728')).toEqual({ heightCm: 50.8, widthCm: 40 });
    expect(chooseDimensions('NormalRank|70|Q174728', '')).toEqual({ heightCm: null, widthCm: null });
    expect(chooseDimensions('DeprecatedRank|70|Q174728', 'NormalRank|50|Q174728')).toEqual({ heightCm: null, widthCm: null });
  });

  test('collections: the best rank present among the current ones', () => {
    expect(currentCollections('NormalRank|Q19675 PreferredRank|Q160236')).toEqual(['Q160236']);
    expect(currentCollections('NormalRank|Q19675 NormalRank|Q160236')).toEqual(['Q19675', 'Q160236']);
    expect(currentCollections('')).toEqual([]);
  });

  test('years, Commons file names and Retry-After', () => {
    expect(yearOf('1889-01-01T00:00:00Z')).toBe(1889);
    expect(yearOf('-0500-01-01T00:00:00Z')).toBe(-500);
    expect(commonsFile('http://commons.wikimedia.org/wiki/Special:FilePath/Van%20Gogh%20-%20Starry_Night.jpg')).toBe('Van Gogh - Starry Night.jpg');
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(8000);
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('disambiguation suffixes', () => {
  const vanGogh = { creatorNames: ['Vincent van Gogh'], museumNames: ['National Gallery'] };
  test.each([
    ['Sunflowers (Van Gogh, National Gallery)', 'Sunflowers'],
    ['Sunflowers (Vincent van Gogh)', 'Sunflowers'],
    ['Wheatfield with Cypresses (Metropolitan Museum of Art)', 'Wheatfield with Cypresses'],
    ['Sunflowers (National Gallery) (Van Gogh)', 'Sunflowers'],
    ['Self-Portrait (with Bandaged Ear)', 'Self-Portrait (with Bandaged Ear)'],
    ['The Harvest (Arles)', 'The Harvest (Arles)'],
    ['Sunflowers (Van Gogh, with vase)', 'Sunflowers (Van Gogh, with vase)'],
    ['Sunflowers (Gogh)', 'Sunflowers'],
    ['Sunflowers (Vincent)', 'Sunflowers (Vincent)'],
  ])('%s → %s', (title, expected) => expect(stripDisambiguation(title, vanGogh)).toBe(expected));

  test('only a whole name is stripped, never a word inside one (issue #39)', () => {
    expect(stripDisambiguation('Allegory (Art)', { creatorNames: ['Jan Steen'], museumNames: ['National Gallery of Art'] })).toBe('Allegory (Art)');
    expect(stripDisambiguation('Allegory (National Gallery of Art)', { creatorNames: ['Jan Steen'], museumNames: ['National Gallery of Art'] })).toBe('Allegory');
    expect(stripDisambiguation("The Tavern (Steen's House)", { creatorNames: ['Jan Steen'] })).toBe("The Tavern (Steen's House)");
    expect(stripDisambiguation('The Tavern (Jan Steen)', { creatorNames: ['Jan Steen'] })).toBe('The Tavern');
    expect(stripDisambiguation('Portrait (Art)', { creatorNames: ['Art Smith'] })).toBe('Portrait (Art)');
    expect(stripDisambiguation('View of Delft (Mauritshuis)', { creatorNames: ['Johannes Vermeer'], museumNames: ['Mauritshuis, The Hague'] })).toBe('View of Delft');
  });
});

describe('slugs', () => {
  test('lower-case ASCII words joined by hyphens, accents folded', () => {
    expect(slugify('Les Vessenots à Auvers')).toBe('les-vessenots-a-auvers');
    expect(slugify('Straße in Łódź, Ærø')).toBe('strasse-in-lodz-aero');
    expect(slugify("L'Arlésienne")).toBe('larlesienne');
    expect(slugify('ひまわりの庭')).toBe('');
    expect(slugify('a '.repeat(200)).length).toBeLessThanOrEqual(80);
  });
  test('a taken slug gets the next candidate, then a number', () => {
    const taken = new Set(['sunflowers', 'sunflowers-vincent-van-gogh']);
    expect(uniqueSlug(['sunflowers', 'sunflowers-vincent-van-gogh'], taken)).toBe('sunflowers-vincent-van-gogh-2');
    expect(uniqueSlug(['irises', 'irises-vincent-van-gogh'], taken)).toBe('irises');
    expect(taken.has('irises')).toBe(true);
  });
});

describe('template stories state only the facts the row holds', () => {
  const facts: StoryFacts = {
    title: { en: 'Irises' },
    artist: { en: 'Vincent van Gogh' },
    year: null,
    yearPrecision: 'year',
    heightCm: 71,
    widthCm: 93,
    museum: null,
    movement: { en: 'Post-Impressionism', fr: 'postimpressionnisme' },
    genre: null,
  };
  test('no year, museum or genre sentence when the row has none', () => {
    const en = templateStory(facts, 'en');
    expect(en).toBe('Irises is a painting by Vincent van Gogh. It measures 71 × 93 cm. It belongs to Post-Impressionism.');
    expect(en).not.toMatch(/\d{4}|held by|Genre/);
    expect(templateStory({ ...facts, year: 1889 }, 'fr')).toContain('1889');
    expect(templateStory(facts, 'fr')).toContain('postimpressionnisme');
    for (const locale of ['es', 'de', 'it', 'ja'] as const) expect(templateStory(facts, locale)).toContain('Irises');
  });
});

describe('choosing the works of a run', () => {
  const works = (artist: number, n: number, popularity: number) =>
    Array.from({ length: n }, (_, i) => ({ id: artist * 100 + i, artist_id: artist, popularity: popularity - i }));
  test('a new artist comes in only with a block of 10, never fewer', () => {
    const nine = works(1, 9, 1000);
    const twelve = works(2, 12, 500);
    const { ids, introduced } = chooseWorks([...nine, ...twelve], new Map(), 100);
    expect(introduced).toEqual([2]);
    expect(ids.filter((id) => id < 200)).toEqual([]);
    expect(ids).toHaveLength(12); // the block of 10, then the rest by popularity once the artist is public
    expect(chooseWorks(twelve, new Map(), 9).ids).toEqual([]); // room for 9 only: nobody is introduced
  });
  test('public artists with fewer than 10 works are served first, up to 10', () => {
    const small = works(1, 10, 1); // 3 public works: 7 more wanted
    const big = works(2, 10, 1000); // 40 public works
    const { ids } = chooseWorks(
      [...small, ...big],
      new Map([
        [1, 3],
        [2, 40],
      ]),
      9,
    );
    expect(ids.filter((id) => id < 200)).toHaveLength(7);
    expect(ids.filter((id) => id >= 200)).toEqual([200, 201]);
  });
});
