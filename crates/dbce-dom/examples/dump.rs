//! Prints what `dbce-dom` makes of an HTML file: `cargo run -p dbce-dom --example dump -- FILE
//! [text|runs|tokens|layers|report]` (default `text`).

use dbce_dom::{Document, Layer, Layers, SanitizeConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: dump FILE [text|runs|tokens|layers|report]")?;
    let what = args.next().unwrap_or_else(|| "text".to_owned());
    let html = String::from_utf8_lossy(&std::fs::read(path)?).into_owned();
    let start = std::time::Instant::now();
    let doc = Document::parse(&html, &SanitizeConfig::default())?;
    eprintln!(
        "parsed {} bytes into {} nodes in {:?}",
        html.len(),
        doc.len(),
        start.elapsed()
    );
    match what.as_str() {
        "text" => println!("{}", doc.visible_text()),
        "runs" => doc
            .text_runs()
            .for_each(|r| println!("{}\t{:?}", r.id.get(), r.text)),
        "tokens" => doc.template_tokens().iter().for_each(|t| println!("{t}")),
        "layers" => print_layers(&doc),
        "report" => println!("{:#?}", doc.report()),
        other => return Err(format!("unknown view {other}").into()),
    }
    Ok(())
}

/// One line per layer, groups in Listing 2.6 order with their numbers.
fn print_layers(doc: &Document) {
    let layers = Layers::new(doc);
    for level in 0..layers.len() {
        let groups: Vec<String> = layers
            .groups(doc, Layer::new(level))
            .map(|g| {
                let names: Vec<&str> = g.nodes().filter_map(|(_, n)| n.name()).collect();
                format!("{}:[{}]", g.number(), names.join(", "))
            })
            .collect();
        println!("{level}: {}", groups.join(" "));
    }
}
