//! Groups pages by template with MinHash LSH, as the `group` stage does.
//!
//! Each "page" here is the list of its template tokens (DOM paths); three share a template
//! with small differences, one has another. The index finds the similar pages without
//! comparing every pair, then ranks them by estimated Jaccard similarity.
//!
//! `cargo run -p dbce-minhash --example near_duplicates`

use dbce_minhash::{LshIndex, LshParams, MinHasher, MinhashConfig};

/// Template tokens of a blog page: a fixed skeleton plus `comments` comment blocks.
fn blog_page(comments: u32) -> Vec<String> {
    let skeleton = (0..40).map(|i| format!("html>body>div.main>article>p:nth-child({i})"));
    let comments =
        (0..comments).map(|i| format!("html>body>div.main>section.comments>div:nth-child({i})"));
    skeleton.chain(comments).collect()
}

fn shop_page() -> Vec<String> {
    (0..45)
        .map(|i| format!("html>body>div#shop>ul.products>li:nth-child({i})>span.price"))
        .collect()
}

fn main() -> Result<(), dbce_minhash::Error> {
    let config = MinhashConfig::default();
    let hasher = MinHasher::new(config)?;
    let params = LshParams::optimal(0.6, config.num_perm)?;
    println!(
        "threshold 0.6 with {} permutations: {} bands of {} rows",
        config.num_perm, params.bands, params.rows
    );

    let pages = [
        ("blog/a", blog_page(2)),
        ("blog/b", blog_page(5)),
        ("blog/c", blog_page(12)),
        ("shop/x", shop_page()),
    ];
    let mut index = LshIndex::new(config, params)?;
    for (id, (_, tokens)) in (0u32..).zip(&pages) {
        index.insert(id, hasher.signature(tokens))?;
    }
    for (id, (name, _)) in (0u32..).zip(&pages) {
        let similar: Vec<String> = index
            .candidates(id)?
            .iter()
            .map(|c| format!("{} ({:.2})", pages[c.id as usize].0, c.jaccard))
            .collect();
        println!(
            "{name}: {}",
            if similar.is_empty() {
                "-".to_owned()
            } else {
                similar.join(", ")
            }
        );
    }
    let shared = index.buckets().filter(|(_, ids)| ids.len() > 1).count();
    println!("{shared} buckets hold more than one page");
    Ok(())
}
