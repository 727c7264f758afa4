//! The six kinds of site the generator knows: language, charset, sections, URL scheme and look.
//!
//! Site `i` follows profile `i % 6`; later rounds get a numbered name and host.

use encoding_rs::Encoding;

use crate::lang::Language;
use crate::naming::Naming;

/// The charset a site serves its pages in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Charset {
    Utf8,
    Windows1252,
    Latin1,
}

impl Charset {
    /// The label written in `Content-Type` and `<meta>`.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Utf8 => "utf-8",
            Self::Windows1252 => "windows-1252",
            Self::Latin1 => "iso-8859-1",
        }
    }

    /// The encoder. ISO-8859-1 pages hold only Latin-1 characters, which windows-1252 encodes
    /// to the same bytes.
    pub(crate) fn encoding(self) -> &'static Encoding {
        match self {
            Self::Utf8 => encoding_rs::UTF_8,
            Self::Windows1252 | Self::Latin1 => encoding_rs::WINDOWS_1252,
        }
    }
}

/// How article URLs are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UrlStyle {
    /// `/{section}/{yyyy}/{mm}/{dd}/{slug}`
    DatedPath,
    /// `/{section}/{slug}-{id}.html`
    SlugHtml,
    /// `/{section}/article.php?id={id}`
    PhpQuery,
    /// `/{yyyy}/{mm}/{slug}/`
    YearMonthSlug,
    /// `/{section}/{id}-{latin name}/`
    IdName,
    /// `/articles/{yyyymmdd}/{id}.html`
    DatedId,
}

/// The look of a site in one period: class vocabulary, number of templates, old-school traits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Skin {
    pub(crate) naming: Naming,
    /// 1: one template for all pages; 2: article and index; 3: plus a long-read template.
    pub(crate) templates: u8,
    /// Layout tables instead of nested `div`s.
    pub(crate) tables: bool,
    /// Named entities (`&auml;`) for accented letters.
    pub(crate) entities: bool,
    /// Source lines are wrapped at this width.
    pub(crate) wrap: Option<usize>,
}

/// A kind of site.
#[derive(Debug)]
pub(crate) struct Profile {
    pub(crate) key: &'static str,
    pub(crate) name: &'static str,
    /// Host name; `{}` takes the round number (empty in the first round).
    pub(crate) host: &'static str,
    pub(crate) company: &'static str,
    pub(crate) language: Language,
    pub(crate) charset: Charset,
    pub(crate) comments: bool,
    pub(crate) sections: [&'static str; 8],
    pub(crate) topics: [&'static str; 10],
    pub(crate) authors: [&'static str; 6],
    /// The look before and after the redesign (only the designated site gets the second).
    pub(crate) skins: [Skin; 2],
    pub(crate) urls: UrlStyle,
    pub(crate) server: &'static str,
    /// Percent of responses sent with `Content-Encoding: gzip`.
    pub(crate) gzip_percent: u32,
}

const fn skin(naming: Naming, templates: u8) -> Skin {
    Skin {
        naming,
        templates,
        tables: false,
        entities: false,
        wrap: None,
    }
}

/// All profiles, in the order sites take them.
pub(crate) static PROFILES: [Profile; 6] = [
    Profile {
        key: "harbor-courier",
        name: "The Harbor Courier",
        host: "www.harborcourier{}.example",
        company: "Harbor Courier Media Ltd.",
        language: Language::English,
        charset: Charset::Utf8,
        comments: true,
        sections: [
            "News", "Politics", "Business", "Sport", "Culture", "Science", "Health", "Travel",
        ],
        topics: [
            "Housing",
            "Transport",
            "Schools",
            "Climate",
            "Courts",
            "Elections",
            "Harbour",
            "Weather",
            "Local food",
            "Obituaries",
        ],
        authors: [
            "Maria Keller",
            "James O'Neill",
            "Aisha Rahman",
            "Tom Becker",
            "Lucy Chen",
            "Sam Whitaker",
        ],
        skins: [skin(Naming::Bem, 2), skin(Naming::Utility, 2)],
        urls: UrlStyle::DatedPath,
        server: "nginx/1.24.0",
        gzip_percent: 15,
    },
    Profile {
        key: "rheinblick",
        name: "Rheinblick Anzeiger",
        host: "www.rheinblick-anzeiger{}.example",
        company: "Rheinblick Verlag GmbH & Co. KG",
        language: Language::German,
        charset: Charset::Windows1252,
        comments: true,
        sections: [
            "Lokales",
            "Politik",
            "Wirtschaft",
            "Sport",
            "Kultur",
            "Panorama",
            "Wissen",
            "Reise",
        ],
        topics: [
            "Verkehr",
            "Schulen",
            "Hochwasser",
            "Stadtrat",
            "Weinfeste",
            "Polizeibericht",
            "Baustellen",
            "Vereine",
            "Rhein",
            "Gastronomie",
        ],
        authors: [
            "Jürgen Weiß",
            "Sabine Müller",
            "Katrin Schäfer",
            "Tobias Groß",
            "Anja Köhler",
            "Dirk Bäumer",
        ],
        skins: [
            Skin {
                tables: true,
                wrap: Some(100),
                ..skin(Naming::Legacy, 1)
            },
            skin(Naming::Utility, 2),
        ],
        urls: UrlStyle::SlugHtml,
        server: "Apache/2.4.57 (Debian)",
        gzip_percent: 10,
    },
    Profile {
        key: "petit-quotidien",
        name: "Le Petit Quotidien de l'Ouest",
        host: "www.lepetitquotidien{}.example",
        company: "Éditions du Quotidien de l'Ouest SA",
        language: Language::French,
        charset: Charset::Latin1,
        comments: false,
        sections: [
            "Actualité",
            "Politique",
            "Économie",
            "Sports",
            "Culture",
            "Société",
            "Santé",
            "Loisirs",
        ],
        topics: [
            "Municipales",
            "Transports",
            "Éducation",
            "Mer",
            "Agriculture",
            "Faits divers",
            "Patrimoine",
            "Festivals",
            "Emploi",
            "Météo",
        ],
        authors: [
            "Jean Le Goff",
            "Marie Caradec",
            "Hélène Morvan",
            "Yann Péron",
            "Sophie Guérin",
            "Luc Tanguy",
        ],
        skins: [
            Skin {
                entities: true,
                wrap: Some(90),
                ..skin(Naming::Legacy, 1)
            },
            skin(Naming::WordPress, 2),
        ],
        urls: UrlStyle::PhpQuery,
        server: "Apache/2.2.22 (Unix) PHP/5.4.45",
        gzip_percent: 0,
    },
    Profile {
        key: "tech-ledger",
        name: "Tech Ledger",
        host: "techledger{}.example",
        company: "Ledger Digital Publishing Inc.",
        language: Language::English,
        charset: Charset::Windows1252,
        comments: true,
        sections: [
            "Reviews", "Gadgets", "Software", "Security", "Science", "Business", "Gaming", "Guides",
        ],
        topics: [
            "Laptops",
            "Phones",
            "Open source",
            "Privacy",
            "Batteries",
            "Chips",
            "Cloud",
            "Cameras",
            "Networking",
            "Deals",
        ],
        authors: [
            "Dana Brooks",
            "Kofi Mensah",
            "Elena Petrova",
            "Ravi Iyer",
            "Grace Liu",
            "Marcus Hale",
        ],
        skins: [skin(Naming::WordPress, 3), skin(Naming::Bootstrap, 3)],
        urls: UrlStyle::YearMonthSlug,
        server: "LiteSpeed",
        gzip_percent: 30,
    },
    Profile {
        key: "severnye-vesti",
        name: "Северные вести",
        host: "sevvesti{}.example",
        company: "ООО «Северные вести»",
        language: Language::Russian,
        charset: Charset::Utf8,
        comments: false,
        sections: [
            "Новости",
            "Политика",
            "Экономика",
            "Спорт",
            "Культура",
            "Общество",
            "Здоровье",
            "Туризм",
        ],
        topics: [
            "ЖКХ",
            "Транспорт",
            "Образование",
            "Погода",
            "Рыболовство",
            "Происшествия",
            "Выборы",
            "Стройка",
            "Порт",
            "Экология",
        ],
        authors: [
            "Иван Петров",
            "Анна Соколова",
            "Мария Кузнецова",
            "Олег Смирнов",
            "Елена Волкова",
            "Павел Морозов",
        ],
        skins: [skin(Naming::Bootstrap, 2), skin(Naming::Bem, 2)],
        urls: UrlStyle::IdName,
        server: "nginx",
        gzip_percent: 20,
    },
    Profile {
        key: "minato-shimbun",
        name: "みなと新聞",
        host: "www.minato-shimbun{}.example",
        company: "株式会社みなと新聞社",
        language: Language::Japanese,
        charset: Charset::Utf8,
        comments: false,
        sections: [
            "社会",
            "政治",
            "経済",
            "スポーツ",
            "文化",
            "科学",
            "暮らし",
            "地域",
        ],
        topics: [
            "交通", "教育", "防災", "港湾", "選挙", "観光", "医療", "農業", "天気", "事件",
        ],
        authors: [
            "山田太郎",
            "佐藤花子",
            "鈴木一郎",
            "高橋美咲",
            "田中健",
            "伊藤由美",
        ],
        skins: [skin(Naming::Utility, 2), skin(Naming::Bootstrap, 2)],
        urls: UrlStyle::DatedId,
        server: "Apache",
        gzip_percent: 10,
    },
];
