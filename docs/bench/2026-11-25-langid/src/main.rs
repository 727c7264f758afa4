//! Language identification: whatlang 0.18 vs lingua 1.8 on lingua's test sentences and word pairs
//! (20 languages) and on page texts given as `LABEL\tPATH` lines on stdin.
use std::io::BufRead;
use std::time::Instant;
use lingua::{Language, LanguageDetectorBuilder};

const LANGS: &[Language] = &[
    Language::English, Language::German, Language::French, Language::Russian, Language::Japanese,
    Language::Chinese, Language::Korean, Language::Spanish, Language::Portuguese, Language::Italian,
    Language::Dutch, Language::Arabic, Language::Thai, Language::Polish, Language::Turkish,
    Language::Vietnamese, Language::Indonesian, Language::Czech, Language::Swedish, Language::Hindi,
];

fn wl(text: &str, det: &whatlang::Detector) -> String {
    det.detect(text).map(|i| match i.lang().code() { "cmn" => "zho".to_owned(), c => c.to_owned() }).unwrap_or_default()
}

fn main() {
    let root = std::env::args().nth(1).expect("registry src dir");
    let lingua = LanguageDetectorBuilder::from_languages(LANGS).with_preloaded_language_models().build();
    let wl_all = whatlang::Detector::new();
    for kind in ["sentences", "word-pairs"] {
        let mut samples = Vec::new();
        for lang in LANGS {
            let name = format!("{lang:?}").to_lowercase();
            let path = format!("{root}/lingua-{name}-language-model-1.3.0/testdata/{kind}.txt");
            let code = lang.iso_code_639_3().to_string();
            for line in std::fs::read_to_string(&path).unwrap().lines().filter(|l| !l.trim().is_empty()) {
                samples.push((code.clone(), line.to_owned()));
            }
        }
        let bytes: usize = samples.iter().map(|s| s.1.len()).sum();
        let t = Instant::now();
        let ok_w = samples.iter().filter(|(c, s)| wl(s, &wl_all) == *c).count();
        let tw = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let ok_l = samples.iter().filter(|(c, s)| lingua.detect_language_of(s.as_str()).map(|l| l.iso_code_639_3().to_string()).as_deref() == Some(c)).count();
        let tl = t.elapsed().as_secs_f64();
        let n = samples.len() as f64;
        println!("{kind}: {} texts, {:.1} MB; whatlang (69 languages) acc {:.3} {:.2} s ({:.1} MB/s); lingua (20 languages) acc {:.3} {:.2} s ({:.1} MB/s)",
            samples.len(), bytes as f64 / 1e6, ok_w as f64 / n, tw, bytes as f64 / 1e6 / tw, ok_l as f64 / n, tl, bytes as f64 / 1e6 / tl);
    }
    // Pages: LABEL<TAB>PATH on stdin (ISO 639-3 label).
    let pages: Vec<(String, String)> = std::io::stdin().lock().lines().map(|l| l.unwrap()).map(|l| {
        let (c, p) = l.split_once('\t').unwrap();
        (c.to_owned(), std::fs::read_to_string(p).unwrap())
    }).collect();
    if pages.is_empty() { return; }
    let bytes: usize = pages.iter().map(|s| s.1.len()).sum();
    let t = Instant::now();
    let ok_w = pages.iter().filter(|(c, s)| wl(s, &wl_all) == *c).count();
    let tw = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let ok_l = pages.iter().filter(|(c, s)| lingua.detect_language_of(s.as_str()).map(|l| l.iso_code_639_3().to_string()).as_deref() == Some(c)).count();
    let tl = t.elapsed().as_secs_f64();
    for (c, s) in &pages { let w = wl(s, &wl_all); if w != *c { eprintln!("whatlang miss: {c} -> {w}: {:?}", s.chars().take(60).collect::<String>()); } }
    let n = pages.len() as f64;
    println!("pages: {} texts, {:.1} MB; whatlang acc {:.3} {:.3} s ({:.1} MB/s); lingua acc {:.3} {:.3} s ({:.1} MB/s)",
        pages.len(), bytes as f64 / 1e6, ok_w as f64 / n, tw, bytes as f64 / 1e6 / tw, ok_l as f64 / n, tl, bytes as f64 / 1e6 / tl);
}
