/**
 * Fills a database with a deterministic synthetic catalog for benchmarks: 100,000 published
 * artworks by 5,000 published artists, in a few hundred browse pages (museums, movements, genres,
 * subjects), with titles and artist names in the six catalog languages.
 *
 *   node --import tsx --import ./scripts/server-process.mjs scripts/fill-catalog.ts [--works=100000] [--artists=5000] [--force]
 *
 * With DATABASE_URL it fills that database; without, it starts the embedded PostgreSQL in
 * DATA_DIR (default: <os temp dir>/art-prints-catalog-fill) and leaves its files there, so
 * `DATA_DIR=<that folder> npm start` serves the filled catalog. Both ways the database is
 * migrated and seeded first (the same step `npm start` runs).
 *
 * Synthetic rows are recognisable by their Wikidata id, which starts with `X` (real ones start
 * with `Q`). A second run finds the same counts and does nothing; a partial or different fill is
 * deleted and refilled; `--force` always refills.
 *
 * Everything goes in with bulk statements (`INSERT ... SELECT FROM unnest(...)`: 100,000 works or
 * 10,000 titles or links a statement) in one transaction with triggers off (`session_replication_role = replica`); the
 * search text is then computed for every synthetic work in one UPDATE with the same function the
 * triggers use, the stored counts are recounted, and the tables are vacuumed and analyzed.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { recountCatalog } from '@/server/catalog/counts';
import { openDatabase, prepareDatabase } from '@/server/db/bootstrap';
import { createDb } from '@/server/db/client';
import { parseEnv } from '@/server/env';
import type { TaxonKind } from '@/shared/catalog';
import { catalogLocales, type CatalogLocale } from '@/shared/locales';

/**
 * The columns of the vocabulary below: the catalog languages it is written in. The fill writes
 * every catalog language (src/shared/locales.ts); one the vocabulary has no column for gets the
 * English words, as the shop shows English where a translation is missing.
 */
const VOCABULARY = ['en', 'es', 'fr', 'de', 'it', 'ja'] as const satisfies readonly CatalogLocale[];
type Words = readonly [en: string, es: string, fr: string, de: string, it: string, ja: string];

export interface FillOptions {
  works?: number;
  artists?: number;
  /** Delete the synthetic rows and fill again even when the counts already match. */
  force?: boolean;
  log?: (line: string) => void;
}

export interface FillResult {
  filled: boolean;
  works: number;
  artists: number;
  taxa: number;
  seconds: number;
}

// ───────────────────────────── vocabulary ─────────────────────────────

/** What titles are made of: each concept in en, es, fr, de, it, ja. About 3% of works hold any one noun. */
export const NOUNS: Words[] = [
  ['River', 'Río', 'Rivière', 'Fluss', 'Fiume', '川'],
  ['Bridge', 'Puente', 'Pont', 'Brücke', 'Ponte', '橋'],
  ['Garden', 'Jardín', 'Jardin', 'Garten', 'Giardino', '庭園'],
  ['Sea', 'Mar', 'Mer', 'Meer', 'Mare', '海'],
  ['Mountain', 'Montaña', 'Montagne', 'Berg', 'Montagna', '山'],
  ['Harbour', 'Puerto', 'Port', 'Hafen', 'Porto', '港'],
  ['Church', 'Iglesia', 'Église', 'Kirche', 'Chiesa', '教会'],
  ['Woman', 'Mujer', 'Femme', 'Frau', 'Donna', '女性'],
  ['Man', 'Hombre', 'Homme', 'Mann', 'Uomo', '男'],
  ['Girl', 'Niña', 'Jeune fille', 'Mädchen', 'Ragazza', '少女'],
  ['Child', 'Niño', 'Enfant', 'Kind', 'Bambino', '子供'],
  ['Flowers', 'Flores', 'Fleurs', 'Blumen', 'Fiori', '花'],
  ['Sunflowers', 'Girasoles', 'Tournesols', 'Sonnenblumen', 'Girasoli', 'ひまわり'],
  ['Apples', 'Manzanas', 'Pommes', 'Äpfel', 'Mele', '林檎'],
  ['Water Lilies', 'Nenúfares', 'Nymphéas', 'Seerosen', 'Ninfee', '睡蓮'],
  ['Forest', 'Bosque', 'Forêt', 'Wald', 'Foresta', '森'],
  ['Village', 'Pueblo', 'Village', 'Dorf', 'Villaggio', '村'],
  ['Boats', 'Barcas', 'Bateaux', 'Boote', 'Barche', '舟'],
  ['Horses', 'Caballos', 'Chevaux', 'Pferde', 'Cavalli', '馬'],
  ['Shepherd', 'Pastor', 'Berger', 'Hirte', 'Pastore', '羊飼い'],
  ['Windmill', 'Molino', 'Moulin', 'Windmühle', 'Mulino', '風車'],
  ['Castle', 'Castillo', 'Château', 'Schloss', 'Castello', '城'],
  ['Lake', 'Lago', 'Lac', 'See', 'Lago', '湖'],
  ['Snow', 'Nieve', 'Neige', 'Schnee', 'Neve', '雪'],
  ['Moon', 'Luna', 'Lune', 'Mond', 'Luna', '月'],
  ['Night', 'Noche', 'Nuit', 'Nacht', 'Notte', '夜'],
  ['Storm', 'Tormenta', 'Tempête', 'Sturm', 'Tempesta', '嵐'],
  ['Portrait', 'Retrato', 'Portrait', 'Bildnis', 'Ritratto', '肖像'],
  ['Madonna', 'Virgen', 'Vierge', 'Madonna', 'Madonna', '聖母'],
  ['Angel', 'Ángel', 'Ange', 'Engel', 'Angelo', '天使'],
  ['Musician', 'Músico', 'Musicien', 'Musiker', 'Musicista', '音楽家'],
  ['Dancers', 'Bailarinas', 'Danseuses', 'Tänzerinnen', 'Ballerine', '踊り子'],
  ['Reader', 'Lectora', 'Liseuse', 'Leserin', 'Lettrice', '読書する女'],
  ['Fruit', 'Frutas', 'Fruits', 'Früchte', 'Frutta', '果物'],
  ['Wheat Field', 'Trigal', 'Champ de blé', 'Weizenfeld', 'Campo di grano', '麦畑'],
  ['Cathedral', 'Catedral', 'Cathédrale', 'Kathedrale', 'Cattedrale', '大聖堂'],
  ['Ruins', 'Ruinas', 'Ruines', 'Ruinen', 'Rovine', '廃墟'],
  ['Cypresses', 'Cipreses', 'Cyprès', 'Zypressen', 'Cipressi', '糸杉'],
  ['Poppies', 'Amapolas', 'Coquelicots', 'Mohnblumen', 'Papaveri', 'ケシ'],
  ['Bathers', 'Bañistas', 'Baigneuses', 'Badende', 'Bagnanti', '水浴する人々'],
  ['Café', 'Café', 'Café', 'Café', 'Caffè', 'カフェ'],
  ['Road', 'Camino', 'Route', 'Straße', 'Strada', '道'],
  ['Waterfall', 'Cascada', 'Cascade', 'Wasserfall', 'Cascata', '滝'],
  ['Wave', 'Ola', 'Vague', 'Welle', 'Onda', '波'],
];

const ADJECTIVES: Words[] = [
  ['Blue', 'azul', 'bleu', 'Blaue', 'azzurro', '青い'],
  ['Red', 'rojo', 'rouge', 'Rote', 'rosso', '赤い'],
  ['White', 'blanco', 'blanc', 'Weiße', 'bianco', '白い'],
  ['Golden', 'dorado', 'doré', 'Goldene', 'dorato', '金色の'],
  ['Old', 'viejo', 'vieux', 'Alte', 'vecchio', '古い'],
  ['Young', 'joven', 'jeune', 'Junge', 'giovane', '若い'],
  ['Quiet', 'tranquilo', 'calme', 'Stille', 'quieto', '静かな'],
  ['Green', 'verde', 'vert', 'Grüne', 'verde', '緑の'],
];

const TIMES: Words[] = [
  ['at Sunset', 'al atardecer', 'au coucher du soleil', 'bei Sonnenuntergang', 'al tramonto', '夕暮れの'],
  ['at Dawn', 'al amanecer', "à l'aube", 'im Morgengrauen', "all'alba", '夜明けの'],
  ['in Winter', 'en invierno', 'en hiver', 'im Winter', 'in inverno', '冬の'],
  ['in Spring', 'en primavera', 'au printemps', 'im Frühling', 'in primavera', '春の'],
  ['in Autumn', 'en otoño', 'en automne', 'im Herbst', 'in autunno', '秋の'],
  ['in Summer', 'en verano', 'en été', 'im Sommer', "d'estate", '夏の'],
];

const CITIES: Words[] = [
  ['Paris', 'París', 'Paris', 'Paris', 'Parigi', 'パリ'],
  ['Venice', 'Venecia', 'Venise', 'Venedig', 'Venezia', 'ヴェネツィア'],
  ['Rome', 'Roma', 'Rome', 'Rom', 'Roma', 'ローマ'],
  ['Amsterdam', 'Ámsterdam', 'Amsterdam', 'Amsterdam', 'Amsterdam', 'アムステルダム'],
  ['London', 'Londres', 'Londres', 'London', 'Londra', 'ロンドン'],
  ['Madrid', 'Madrid', 'Madrid', 'Madrid', 'Madrid', 'マドリード'],
  ['Florence', 'Florencia', 'Florence', 'Florenz', 'Firenze', 'フィレンツェ'],
  ['Vienna', 'Viena', 'Vienne', 'Wien', 'Vienna', 'ウィーン'],
  ['Berlin', 'Berlín', 'Berlin', 'Berlin', 'Berlino', 'ベルリン'],
  ['Toledo', 'Toledo', 'Tolède', 'Toledo', 'Toledo', 'トレド'],
  ['Delft', 'Delft', 'Delft', 'Delft', 'Delft', 'デルフト'],
  ['Kyoto', 'Kioto', 'Kyoto', 'Kyōto', 'Kyoto', '京都'],
  ['Edo', 'Edo', 'Edo', 'Edo', 'Edo', '江戸'],
  ['Naples', 'Nápoles', 'Naples', 'Neapel', 'Napoli', 'ナポリ'],
  ['Seville', 'Sevilla', 'Séville', 'Sevilla', 'Siviglia', 'セビリア'],
  ['Rouen', 'Ruan', 'Rouen', 'Rouen', 'Rouen', 'ルーアン'],
  ['Arles', 'Arlés', 'Arles', 'Arles', 'Arles', 'アルル'],
  ['Antwerp', 'Amberes', 'Anvers', 'Antwerpen', 'Anversa', 'アントワープ'],
  ['Munich', 'Múnich', 'Munich', 'München', 'Monaco di Baviera', 'ミュンヘン'],
  ['Prague', 'Praga', 'Prague', 'Prag', 'Praga', 'プラハ'],
];

const MUSEUM_TYPES: Words[] = [
  ['Museum of Fine Arts', 'Museo de Bellas Artes', 'Musée des Beaux-Arts', 'Museum der bildenden Künste', 'Museo di Belle Arti', '美術館'],
  ['National Gallery', 'Galería Nacional', 'Galerie nationale', 'Nationalgalerie', 'Galleria Nazionale', '国立美術館'],
  ['City Museum', 'Museo Municipal', 'Musée municipal', 'Stadtmuseum', 'Museo Civico', '市立美術館'],
  ['Art Collection', 'Colección de Arte', "Collection d'art", 'Kunstsammlung', "Collezione d'Arte", '美術コレクション'],
  ['Palace Museum', 'Museo del Palacio', 'Musée du Palais', 'Schlossmuseum', 'Museo del Palazzo', '宮殿美術館'],
  ['Academy Gallery', 'Galería de la Academia', "Galerie de l'Académie", 'Akademiegalerie', "Galleria dell'Accademia", 'アカデミー美術館'],
  ['Modern Art Museum', 'Museo de Arte Moderno', "Musée d'Art moderne", 'Museum für moderne Kunst', "Museo d'Arte Moderna", '近代美術館'],
  ['Diocesan Museum', 'Museo Diocesano', 'Musée diocésain', 'Diözesanmuseum', 'Museo Diocesano', '司教区美術館'],
  ['Print Room', 'Gabinete de Estampas', 'Cabinet des estampes', 'Kupferstichkabinett', 'Gabinetto delle Stampe', '版画館'],
  ['Foundation', 'Fundación', 'Fondation', 'Stiftung', 'Fondazione', '財団美術館'],
];

const MOVEMENTS: Words[] = [
  ['Gothic painting', 'Pintura gótica', 'Peinture gothique', 'Gotische Malerei', 'Pittura gotica', 'ゴシック絵画'],
  ['Early Renaissance', 'Primer Renacimiento', 'Première Renaissance', 'Frührenaissance', 'Primo Rinascimento', '初期ルネサンス'],
  ['High Renaissance', 'Alto Renacimiento', 'Haute Renaissance', 'Hochrenaissance', 'Alto Rinascimento', '盛期ルネサンス'],
  ['Mannerism', 'Manierismo', 'Maniérisme', 'Manierismus', 'Manierismo', 'マニエリスム'],
  ['Baroque', 'Barroco', 'Baroque', 'Barock', 'Barocco', 'バロック'],
  ['Caravaggism', 'Caravaggismo', 'Caravagisme', 'Caravaggismus', 'Caravaggismo', 'カラヴァッジョ派'],
  ['Flemish Baroque', 'Barroco flamenco', 'Baroque flamand', 'Flämischer Barock', 'Barocco fiammingo', 'フランドル・バロック'],
  ['Rococo', 'Rococó', 'Rococo', 'Rokoko', 'Rococò', 'ロココ'],
  ['Neoclassicism', 'Neoclasicismo', 'Néoclassicisme', 'Klassizismus', 'Neoclassicismo', '新古典主義'],
  ['Romanticism', 'Romanticismo', 'Romantisme', 'Romantik', 'Romanticismo', 'ロマン主義'],
  ['Biedermeier', 'Biedermeier', 'Biedermeier', 'Biedermeier', 'Biedermeier', 'ビーダーマイヤー'],
  ['Barbizon school', 'Escuela de Barbizon', 'École de Barbizon', 'Schule von Barbizon', 'Scuola di Barbizon', 'バルビゾン派'],
  ['Realism', 'Realismo', 'Réalisme', 'Realismus', 'Realismo', '写実主義'],
  ['Academic art', 'Academicismo', 'Art académique', 'Akademische Kunst', 'Arte accademica', 'アカデミック美術'],
  ['Pre-Raphaelites', 'Prerrafaelismo', 'Préraphaélisme', 'Präraffaeliten', 'Preraffaelliti', 'ラファエル前派'],
  ['Impressionism', 'Impresionismo', 'Impressionnisme', 'Impressionismus', 'Impressionismo', '印象派'],
  ['Post-Impressionism', 'Postimpresionismo', 'Postimpressionnisme', 'Postimpressionismus', 'Postimpressionismo', 'ポスト印象派'],
  ['Pointillism', 'Puntillismo', 'Pointillisme', 'Pointillismus', 'Puntinismo', '点描主義'],
  ['Symbolism', 'Simbolismo', 'Symbolisme', 'Symbolismus', 'Simbolismo', '象徴主義'],
  ['Art Nouveau', 'Modernismo', 'Art nouveau', 'Jugendstil', 'Liberty', 'アール・ヌーヴォー'],
  ['Expressionism', 'Expresionismo', 'Expressionnisme', 'Expressionismus', 'Espressionismo', '表現主義'],
  ['Fauvism', 'Fovismo', 'Fauvisme', 'Fauvismus', 'Fauvismo', 'フォーヴィスム'],
  ['Ukiyo-e', 'Ukiyo-e', 'Ukiyo-e', 'Ukiyo-e', 'Ukiyo-e', '浮世絵'],
  ['Nihonga', 'Nihonga', 'Nihonga', 'Nihonga', 'Nihonga', '日本画'],
];

const GENRES: Words[] = [
  ['Portrait', 'Retrato', 'Portrait', 'Porträt', 'Ritratto', '肖像画'],
  ['Landscape', 'Paisaje', 'Paysage', 'Landschaft', 'Paesaggio', '風景画'],
  ['Still life', 'Bodegón', 'Nature morte', 'Stillleben', 'Natura morta', '静物画'],
  ['History painting', 'Pintura de historia', "Peinture d'histoire", 'Historienmalerei', 'Pittura di storia', '歴史画'],
  ['Religious painting', 'Pintura religiosa', 'Peinture religieuse', 'Religiöse Malerei', 'Pittura religiosa', '宗教画'],
  ['Genre painting', 'Pintura de género', 'Peinture de genre', 'Genremalerei', 'Pittura di genere', '風俗画'],
  ['Marine painting', 'Pintura marina', 'Peinture de marine', 'Marinemalerei', 'Pittura di marina', '海景画'],
  ['Cityscape', 'Paisaje urbano', 'Paysage urbain', 'Stadtansicht', 'Veduta urbana', '都市景観画'],
  ['Animal painting', 'Pintura de animales', 'Peinture animalière', 'Tiermalerei', 'Pittura di animali', '動物画'],
  ['Nude', 'Desnudo', 'Nu', 'Akt', 'Nudo', '裸体画'],
  ['Allegory', 'Alegoría', 'Allégorie', 'Allegorie', 'Allegoria', '寓意画'],
  ['Mythological painting', 'Pintura mitológica', 'Peinture mythologique', 'Mythologische Malerei', 'Pittura mitologica', '神話画'],
  ['Self-portrait', 'Autorretrato', 'Autoportrait', 'Selbstbildnis', 'Autoritratto', '自画像'],
  ['Interior', 'Interior', 'Intérieur', 'Interieur', 'Interno', '室内画'],
  ['Flower painting', 'Pintura de flores', 'Peinture de fleurs', 'Blumenmalerei', 'Pittura di fiori', '花卉画'],
  ['Veduta', 'Vista urbana', 'Védute', 'Vedute', 'Veduta', '景観画'],
];

/** Painters' names by tradition: [latin, japanese] for first and family names. */
const NAME_GROUPS: { first: [string, string][]; last: [string, string][]; familyFirst?: boolean }[] = [
  {
    first: [
      ['Jean', 'ジャン'],
      ['Pierre', 'ピエール'],
      ['Claude', 'クロード'],
      ['Camille', 'カミーユ'],
      ['Henri', 'アンリ'],
      ['Louis', 'ルイ'],
      ['Marie', 'マリー'],
      ['Berthe', 'ベルト'],
      ['Édouard', 'エドゥアール'],
      ['Jeanne', 'ジャンヌ'],
    ],
    last: [
      ['Moreau', 'モロー'],
      ['Lefèvre', 'ルフェーヴル'],
      ['Dubois', 'デュボワ'],
      ['Laurent', 'ローラン'],
      ['Girard', 'ジラール'],
      ['Rousseau', 'ルソー'],
      ['Fontaine', 'フォンテーヌ'],
      ['Mercier', 'メルシエ'],
      ['Chevalier', 'シュヴァリエ'],
      ['Garnier', 'ガルニエ'],
      ['Lemaire', 'ルメール'],
      ['Perrin', 'ペラン'],
      ['Marchand', 'マルシャン'],
      ['Renard', 'ルナール'],
      ['Blanchard', 'ブランシャール'],
    ],
  },
  {
    first: [
      ['Giovanni', 'ジョヴァンニ'],
      ['Paolo', 'パオロ'],
      ['Francesco', 'フランチェスコ'],
      ['Lucia', 'ルチア'],
      ['Antonio', 'アントニオ'],
      ['Caterina', 'カテリーナ'],
      ['Giulia', 'ジュリア'],
      ['Lorenzo', 'ロレンツォ'],
    ],
    last: [
      ['Rossi', 'ロッシ'],
      ['Bianchi', 'ビアンキ'],
      ['Romano', 'ロマーノ'],
      ['Colombo', 'コロンボ'],
      ['Ricci', 'リッチ'],
      ['Marino', 'マリーノ'],
      ['Greco', 'グレコ'],
      ['Bruno', 'ブルーノ'],
      ['Gallo', 'ガッロ'],
      ['Conti', 'コンティ'],
      ['De Luca', 'デ・ルーカ'],
      ['Mancini', 'マンチーニ'],
      ['Costa', 'コスタ'],
      ['Giordano', 'ジョルダーノ'],
      ['Lombardi', 'ロンバルディ'],
    ],
  },
  {
    first: [
      ['Diego', 'ディエゴ'],
      ['Francisco', 'フランシスコ'],
      ['Juan', 'フアン'],
      ['Carmen', 'カルメン'],
      ['José', 'ホセ'],
      ['Isabel', 'イサベル'],
      ['Joaquín', 'ホアキン'],
      ['Ángela', 'アンヘラ'],
    ],
    last: [
      ['García', 'ガルシア'],
      ['Fernández', 'フェルナンデス'],
      ['López', 'ロペス'],
      ['Martínez', 'マルティネス'],
      ['Sánchez', 'サンチェス'],
      ['Pérez', 'ペレス'],
      ['Gómez', 'ゴメス'],
      ['Ruiz', 'ルイス'],
      ['Díaz', 'ディアス'],
      ['Moreno', 'モレノ'],
      ['Muñoz', 'ムニョス'],
      ['Álvarez', 'アルバレス'],
      ['Romero', 'ロメロ'],
      ['Navarro', 'ナバロ'],
      ['Torres', 'トーレス'],
    ],
  },
  {
    first: [
      ['Jan', 'ヤン'],
      ['Pieter', 'ピーテル'],
      ['Johannes', 'ヨハネス'],
      ['Albrecht', 'アルブレヒト'],
      ['Caspar', 'カスパー'],
      ['Franz', 'フランツ'],
      ['Anna', 'アンナ'],
      ['Clara', 'クララ'],
      ['Gustav', 'グスタフ'],
    ],
    last: [
      ['Müller', 'ミュラー'],
      ['Schmidt', 'シュミット'],
      ['Schneider', 'シュナイダー'],
      ['Fischer', 'フィッシャー'],
      ['Weber', 'ヴェーバー'],
      ['Becker', 'ベッカー'],
      ['Hoffmann', 'ホフマン'],
      ['de Vries', 'デ・フリース'],
      ['van Dijk', 'ファン・デイク'],
      ['Jansen', 'ヤンセン'],
      ['Bakker', 'バッカー'],
      ['Visser', 'フィッセル'],
      ['Smit', 'スミット'],
      ['Koch', 'コッホ'],
      ['Wagner', 'ワーグナー'],
    ],
  },
  {
    first: [
      ['William', 'ウィリアム'],
      ['John', 'ジョン'],
      ['Thomas', 'トーマス'],
      ['Mary', 'メアリー'],
      ['Joseph', 'ジョゼフ'],
      ['Elizabeth', 'エリザベス'],
      ['George', 'ジョージ'],
      ['Emily', 'エミリー'],
    ],
    last: [
      ['Smith', 'スミス'],
      ['Turner', 'ターナー'],
      ['Walker', 'ウォーカー'],
      ['Wright', 'ライト'],
      ['Hughes', 'ヒューズ'],
      ['Clarke', 'クラーク'],
      ['Hall', 'ホール'],
      ['Wood', 'ウッド'],
      ['Green', 'グリーン'],
      ['Baker', 'ベイカー'],
      ['Hill', 'ヒル'],
      ['Moore', 'ムーア'],
      ['Ward', 'ウォード'],
      ['Palmer', 'パーマー'],
      ['Cooper', 'クーパー'],
    ],
  },
  {
    familyFirst: true,
    first: [
      ['Kuniyoshi', '国芳'],
      ['Kiyonaga', '清長'],
      ['Harunobu', '春信'],
      ['Eitoku', '永徳'],
      ['Korin', '光琳'],
      ['Okyo', '応挙'],
      ['Hoitsu', '抱一'],
      ['Taikan', '大観'],
      ['Shunso', '春草'],
      ['Kiyoshi', '清'],
    ],
    last: [
      ['Utagawa', '歌川'],
      ['Katsushika', '葛飾'],
      ['Kitagawa', '喜多川'],
      ['Suzuki', '鈴木'],
      ['Tanaka', '田中'],
      ['Ito', '伊藤'],
      ['Kano', '狩野'],
      ['Ogata', '尾形'],
      ['Maruyama', '円山'],
      ['Sakai', '酒井'],
      ['Yokoyama', '横山'],
      ['Hishida', '菱田'],
      ['Kobayashi', '小林'],
      ['Takahashi', '高橋'],
      ['Yamamoto', '山本'],
    ],
  },
];

/** How often a work has a title in each language (English always; 0.5 for a language not named here). */
const TITLE_SHARE: Partial<Record<CatalogLocale, number>> = { en: 1, es: 0.65, fr: 0.8, de: 0.7, it: 0.6, ja: 0.5 };

// ───────────────────────────── determinism ─────────────────────────────

/** A uniform number in [0, 1) that depends only on (n, salt): the same catalog on every run. */
export function rnd(n: number, salt: number): number {
  let h = (Math.imul(n, 0x9e3779b1) ^ Math.imul(salt + 0x632be5ab, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 4294967296;
}
const pick = <T>(list: readonly T[], n: number, salt: number): T => list[Math.floor(rnd(n, salt) * list.length)]!;
/** Skewed toward the start of the list (power > 1): a few museums and painters hold most works. */
const pickSkewed = (size: number, n: number, salt: number, power: number) => Math.min(size - 1, Math.floor(size * rnd(n, salt) ** power));

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A language's column in the vocabulary (English's when it has none). */
const L = (lang: CatalogLocale) => Math.max(0, (VOCABULARY as readonly CatalogLocale[]).indexOf(lang));

/** A title in every language from one of six patterns. */
function titleOf(i: number): Words {
  const a = pick(NOUNS, i, 1);
  let b = pick(NOUNS, i, 2);
  if (b === a) b = NOUNS[(NOUNS.indexOf(a) + 7) % NOUNS.length]!;
  const adj = pick(ADJECTIVES, i, 3);
  const time = pick(TIMES, i, 4);
  const city = pick(CITIES, i, 5);
  const pattern = Math.floor(rnd(i, 6) * 6);
  return VOCABULARY.map((lang) => {
    const k = L(lang);
    switch (pattern) {
      case 0:
        return a[k];
      case 1:
        return lang === 'en' || lang === 'de' ? `${adj[k]} ${a[k]}` : lang === 'ja' ? `${adj[k]}${a[k]}` : `${a[k]} ${adj[k]}`;
      case 2:
        return lang === 'ja' ? `${a[k]}と${b[k]}` : `${a[k]} ${['and', 'y', 'et', 'und', 'e'][k]} ${b[k]}`;
      case 3:
        return lang === 'ja' ? `${b[k]}のある${a[k]}` : `${a[k]} ${['with', 'con', 'avec', 'mit', 'con'][k]} ${b[k]}`;
      case 4:
        return lang === 'ja' ? `${time[k]}${a[k]}` : `${a[k]} ${time[k]}`;
      default:
        return lang === 'ja' ? `${city[k]}の${a[k]}` : `${a[k]} ${['in', 'en', 'à', 'in', 'a'][k]} ${city[k]}`;
    }
  }) as unknown as Words;
}

function artistOf(j: number): { names: Words; group: number } {
  const group = Math.floor(rnd(j, 11) * NAME_GROUPS.length);
  const g = NAME_GROUPS[group]!;
  const first = pick(g.first, j, 12);
  const last = pick(g.last, j, 13);
  const latin = g.familyFirst ? `${last[0]} ${first[0]}` : `${first[0]} ${last[0]}`;
  const ja = g.familyFirst ? `${last[1]}${first[1]}` : `${first[1]}・${last[1]}`;
  return { names: [latin, latin, latin, latin, latin, ja], group };
}

// ───────────────────────────── the fill ─────────────────────────────

interface TaxonSpec {
  kind: TaxonKind;
  names: Words;
}

function taxonSpecs(): TaxonSpec[] {
  const museums: TaxonSpec[] = [];
  for (const type of MUSEUM_TYPES) {
    for (const city of CITIES) {
      museums.push({ kind: 'museum', names: VOCABULARY.map((lang) => (lang === 'ja' ? `${city[5]}${type[5]}` : `${type[L(lang)]}, ${city[L(lang)]}`)) as unknown as Words });
    }
  }
  return [
    ...museums,
    ...MOVEMENTS.map((names) => ({ kind: 'movement' as const, names })),
    ...GENRES.map((names) => ({ kind: 'genre' as const, names })),
    ...NOUNS.map((names) => ({ kind: 'subject' as const, names })),
  ];
}

const BATCH = 10_000;
const BASE_TIME = Date.UTC(2026, 0, 1);

/** Runs `INSERT INTO table (columns) SELECT * FROM unnest($1::type[], ...)` in batches. */
async function bulkInsert(client: pg.ClientBase, table: string, columns: [name: string, type: string][], rows: unknown[][]) {
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  const arrays = columns.map(([, type], k) => `$${k + 1}::${type}[]`).join(', ');
  const sql = `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays})`;
  for (let start = 0; start < rows.length; start += BATCH) {
    const slice = rows.slice(start, start + BATCH);
    await client.query(
      sql,
      columns.map((_, k) => slice.map((row) => row[k])),
    );
  }
}

/** How many works are generated and written at a time (with their titles and links): a million works take ten rounds. */
const CHUNK = 100_000;

interface Artist {
  id: number;
  names: Words;
  birth: number;
  death: number;
  movement: number;
}

/** The rows of works `from` to `to` (exclusive): the works, their titles and their browse-page links. */
function fillWorks(from: number, to: number, workBase: number, artists: Artist[], taxonIds: Record<TaxonKind, number[]>) {
  const workRows: unknown[][] = [];
  const textRows: unknown[][] = [];
  const linkRows: unknown[][] = [];
  for (let i = from; i < to; i++) {
    const id = workBase + i;
    const artist = artists[i < artists.length ? i : pickSkewed(artists.length, i, 21, 2.2)]!;
    const titles = titleOf(i);
    const year = Math.min(artist.death, artist.birth + 18 + Math.floor(rnd(i, 22) * (artist.death - artist.birth - 18)));
    const portraitLike = rnd(i, 23) < 0.5;
    const long = 20 + Math.round(rnd(i, 24) * 2800) / 10;
    const short = Math.round(long * (0.55 + rnd(i, 25) * 0.4) * 10) / 10;
    const popularity = Math.floor(300 * rnd(i, 26) ** 6);
    const publishedAt = BASE_TIME - Math.floor(rnd(i, 27) * 365 * 86_400_000);
    workRows.push([
      id,
      `${slugify(titles[0])}-${i + 1}`,
      `XW${i + 1}`,
      artist.id,
      year,
      portraitLike ? long : short,
      portraitLike ? short : long,
      `${artist.names[0]} - ${titles[0]} (${year}).jpg`,
      popularity,
      rnd(i, 28) < 0.01,
      publishedAt,
    ]);
    for (const lang of catalogLocales) {
      if (lang !== 'en' && rnd(i, 30 + L(lang)) >= (TITLE_SHARE[lang] ?? 0.5)) continue;
      const story = lang === 'en' && rnd(i, 29) < 0.6 ? `${titles[0]}, painted by ${artist.names[0]} in ${year}.` : null;
      textRows.push([id, lang, titles[L(lang)], story]);
    }
    const taxa = new Set<number>([
      taxonIds.museum[pickSkewed(taxonIds.museum.length, i, 40, 2)]!,
      rnd(i, 41) < 0.8 ? artist.movement : pick(taxonIds.movement, i, 42),
      pick(taxonIds.genre, i, 43),
      taxonIds.subject[NOUNS.findIndex((n) => n[0] === pick(NOUNS, i, 1)[0])]!,
    ]);
    const extraSubjects = Math.floor(rnd(i, 44) * 4); // 1-4 subjects in all
    for (let s = 0; s < extraSubjects; s++) taxa.add(pick(taxonIds.subject, i, 45 + s));
    for (const taxonId of taxa) linkRows.push([id, taxonId]);
  }
  return { works: workRows, texts: textRows, links: linkRows };
}

/** Fills the database at `url` (already migrated) with the synthetic catalog. */
export async function fillCatalog(url: string, options: FillOptions = {}): Promise<FillResult> {
  const works = options.works ?? 100_000;
  const artistCount = options.artists ?? 5_000;
  const log = options.log ?? ((line: string) => console.log(`[fill] ${line}`));
  const specs = taxonSpecs();
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const counts = await client.query<{ works: number; artists: number; taxa: number }>(`
      SELECT (SELECT count(*)::int FROM artworks WHERE wikidata_id LIKE 'X%') AS works,
             (SELECT count(*)::int FROM artists WHERE wikidata_id LIKE 'X%') AS artists,
             (SELECT count(*)::int FROM taxa WHERE wikidata_id LIKE 'X%') AS taxa`);
    const have = counts.rows[0]!;
    if (!options.force && have.works === works && have.artists === artistCount && have.taxa === specs.length) {
      log(`already filled: ${works} synthetic works by ${artistCount} artists in ${specs.length} browse pages`);
      return { filled: false, works, artists: artistCount, taxa: specs.length, seconds: (Date.now() - started) / 1000 };
    }

    await client.query('BEGIN');
    if (have.works || have.artists || have.taxa) {
      log('removing the previous synthetic fill');
      // Cascades (texts, browse-page links, favorites) are triggers: delete before they are switched off.
      await client.query(`DELETE FROM artworks WHERE wikidata_id LIKE 'X%'`);
      await client.query(`DELETE FROM artists WHERE wikidata_id LIKE 'X%'`);
      await client.query(`DELETE FROM taxa WHERE wikidata_id LIKE 'X%'`);
    }
    const triggersOn = await switchTriggersOff(client, log);

    const nextId = async (table: string) => Number((await client.query<{ n: number }>(`SELECT COALESCE(max(id), 0)::int AS n FROM ${table}`)).rows[0]!.n) + 1;

    // Browse pages: slugs made unique against the curated ones (the curated "impressionism" stays theirs).
    const taken = new Set((await client.query<{ key: string }>(`SELECT kind || ':' || slug AS key FROM taxa`)).rows.map((r) => r.key));
    const taxonBase = await nextId('taxa');
    const taxonIds: Record<TaxonSpec['kind'], number[]> = { museum: [], movement: [], genre: [], subject: [] };
    const taxaRows: unknown[][] = [];
    const taxonTextRows: unknown[][] = [];
    specs.forEach((spec, k) => {
      const id = taxonBase + k;
      let slug = slugify(spec.names[0]);
      for (let n = 2; taken.has(`${spec.kind}:${slug}`); n++) slug = `${slugify(spec.names[0])}-${n}`;
      taken.add(`${spec.kind}:${slug}`);
      taxonIds[spec.kind].push(id);
      taxaRows.push([id, spec.kind, slug, `XT${k + 1}`, BASE_TIME]);
      catalogLocales.forEach((lang) => taxonTextRows.push([id, lang, spec.names[L(lang)], lang === 'en' ? `${spec.names[0]}: works in the catalog, best known first.` : null]));
    });
    await client.query(
      `INSERT INTO taxa (id, kind, slug, wikidata_id, updated_at)
       SELECT id, kind::"TaxonKind", slug, wd, to_timestamp(t / 1000.0) FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::float8[]) AS u(id, kind, slug, wd, t)`,
      [0, 1, 2, 3, 4].map((c) => taxaRows.map((r) => r[c])),
    );
    await bulkInsert(
      client,
      'taxon_texts',
      [
        ['taxon_id', 'int'],
        ['locale', 'text'],
        ['name', 'text'],
        ['description', 'text'],
      ],
      taxonTextRows,
    );
    log(`${specs.length} browse pages`);

    // Artists, each with a main movement most of their works belong to.
    const artistBase = await nextId('artists');
    const artists: Artist[] = Array.from({ length: artistCount }, (_, j) => {
      const { names } = artistOf(j);
      const birth = 1300 + Math.floor(rnd(j, 14) * 600);
      const death = birth + 30 + Math.floor(rnd(j, 15) * 60);
      return { id: artistBase + j, names, birth, death, movement: pick(taxonIds.movement, j, 16) };
    });
    await client.query(
      `INSERT INTO artists (id, slug, wikidata_id, name, birth_year, death_year, status, published_at, updated_at)
       SELECT id, slug, wd, name, b, d, 'published', to_timestamp(t / 1000.0), to_timestamp(t / 1000.0)
         FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::float8[]) AS u(id, slug, wd, name, b, d, t)`,
      [
        artists.map((a) => a.id),
        artists.map((a, j) => `${slugify(a.names[0])}-${j + 1}`),
        artists.map((_, j) => `XA${j + 1}`),
        artists.map((a) => a.names[0]),
        artists.map((a) => a.birth),
        artists.map((a) => a.death),
        artists.map((_, j) => BASE_TIME - j * 60_000),
      ],
    );
    const artistTextRows: unknown[][] = [];
    for (const a of artists) {
      catalogLocales.forEach((lang) =>
        artistTextRows.push([
          a.id,
          lang,
          a.names[L(lang)],
          lang === 'en' ? `${a.names[0]} (${a.birth}–${a.death}) was a painter whose works are reproduced by hand in our studio.` : null,
        ]),
      );
    }
    await bulkInsert(
      client,
      'artist_texts',
      [
        ['artist_id', 'int'],
        ['locale', 'text'],
        ['name', 'text'],
        ['bio', 'text'],
      ],
      artistTextRows,
    );
    log(`${artistCount} artists`);

    // Works: the first of each artist so every artist has one, then skewed toward prolific painters.
    // Written a chunk at a time (rows in id order, so the table is stored in id order), so that a
    // million works never hold all their rows in Node's memory at once.
    const workBase = await nextId('artworks');
    let titles = 0;
    let links = 0;
    for (let from = 0; from < works; from += CHUNK) {
      const chunk = fillWorks(from, Math.min(works, from + CHUNK), workBase, artists, taxonIds);
      await client.query(
        `INSERT INTO artworks (id, slug, wikidata_id, artist_id, year, height_cm, width_cm, image_file, popularity, featured, curated, status, published_at, updated_at)
         SELECT id, slug, wd, artist_id, year, h, w, image, pop, featured, false, 'published', to_timestamp(t / 1000.0), to_timestamp(t / 1000.0)
           FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::numeric[], $7::numeric[], $8::text[], $9::int[], $10::bool[], $11::float8[])
                AS u(id, slug, wd, artist_id, year, h, w, image, pop, featured, t)`,
        chunk.works[0]!.map((_, k) => chunk.works.map((row) => row[k])),
      );
      await bulkInsert(
        client,
        'artwork_texts',
        [
          ['artwork_id', 'int'],
          ['locale', 'text'],
          ['title', 'text'],
          ['story', 'text'],
        ],
        chunk.texts,
      );
      await bulkInsert(
        client,
        'artwork_taxa',
        [
          ['artwork_id', 'int'],
          ['taxon_id', 'int'],
        ],
        chunk.links,
      );
      titles += chunk.texts.length;
      links += chunk.links.length;
      if (works > CHUNK) log(`${Math.min(works, from + CHUNK)} of ${works} artworks`);
    }
    log(`${works} artworks, ${titles} titles, ${links} browse-page links`);

    // What the triggers would have written, for all synthetic works at once: the search text,
    // then the search index's terms and entries with their leads (migrations
    // 20261124090000_search_terms, 20261125130000_term_leads); each word's best-known work
    // (search_terms.best) is set by the recount below.
    await client.query(`UPDATE artworks SET search_text = artwork_search_text(id, artist_id) WHERE id >= $1`, [workBase]);
    await client.query(
      `INSERT INTO search_terms (term)
       SELECT DISTINCT unnest(search_terms_of(search_text)) FROM artworks WHERE id >= $1 AND status = 'published' AND search_text IS NOT NULL
       ON CONFLICT DO NOTHING`,
      [workBase],
    );
    await client.query(
      `INSERT INTO artwork_terms (artwork_id, term, popularity, lead)
       SELECT w.id, t, w.popularity, COALESCE(l.lead, 0) FROM artworks w CROSS JOIN LATERAL unnest(search_terms_of(w.search_text)) t
         LEFT JOIN artwork_title_leads($1, 2147483647) l ON l.artwork_id = w.id AND l.term = t
        WHERE w.id >= $1 AND w.status = 'published' AND w.search_text IS NOT NULL`,
      [workBase],
    );
    for (const table of ['taxa', 'artists', 'artworks']) {
      await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
    }
    await triggersOn();
    await client.query('COMMIT');
    log('search text computed, committed');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }

  const db = createDb(url);
  try {
    const recounted = await recountCatalog(db);
    log(`recounted ${recounted.artists} artists and ${recounted.taxa} browse pages`);
  } finally {
    await db.$disconnect();
  }
  const vacuum = new pg.Client({ connectionString: url });
  await vacuum.connect();
  try {
    await vacuum.query('VACUUM (ANALYZE) artworks, artwork_texts, artwork_taxa, artists, artist_texts, taxa, taxon_texts, artwork_terms, search_terms');
  } finally {
    await vacuum.end();
  }
  const seconds = (Date.now() - started) / 1000;
  log(`filled in ${seconds.toFixed(1)} s (vacuumed and analyzed)`);
  return { filled: true, works, artists: artistCount, taxa: specs.length, seconds };
}

/**
 * Triggers off for this transaction: `session_replication_role = replica` (superuser, or a user
 * granted SET on it), else the search triggers are disabled by name (table owner) and enabled again
 * before commit. Foreign keys are not checked in replica mode; the fill writes consistent rows.
 */
async function switchTriggersOff(client: pg.ClientBase, log: (line: string) => void): Promise<() => Promise<void>> {
  await client.query('SAVEPOINT triggers');
  try {
    await client.query('SET LOCAL session_replication_role = replica');
    return async () => undefined; // SET LOCAL ends with the transaction
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT triggers');
  }
  log('session_replication_role is not allowed for this user: disabling the search triggers by name instead');
  const triggers = [
    ['artworks', 'artworks_search_text'],
    ['artwork_texts', 'artwork_texts_search_text'],
    ['artist_texts', 'artist_texts_search_text'],
    ['artists', 'artists_search_text'],
    ['artworks', 'artworks_terms_insert'],
    ['artworks', 'artworks_terms_update'],
  ];
  for (const [table, trigger] of triggers) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
  // ALTER TABLE is transactional: enabled again in the same transaction, before COMMIT.
  return async () => {
    for (const [table, trigger] of triggers) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
  };
}

// ───────────────────────────── command line ─────────────────────────────

function flag(name: string): string | undefined {
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return arg === undefined ? undefined : (arg.split('=')[1] ?? '');
}

async function main() {
  const works = flag('works') ? Number(flag('works')) : undefined;
  const artists = flag('artists') ? Number(flag('artists')) : undefined;
  const force = flag('force') !== undefined;
  const dataDir = process.env.DATA_DIR ?? path.join(tmpdir(), 'art-prints-catalog-fill');
  if (!process.env.DATABASE_URL) mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const config = parseEnv({ ...process.env, DATA_DIR: dataDir });
  const database = await openDatabase(config);
  try {
    await prepareDatabase(database.url);
    await fillCatalog(database.url, { works, artists, force });
    if (!config.DATABASE_URL) console.log(`[fill] the embedded database is in ${dataDir}; serve it with DATA_DIR=${dataDir} npm start`);
  } finally {
    await database.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`[fill] failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  });
}
