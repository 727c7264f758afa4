use super::*;
use crate::Config;

fn site(index: u32) -> Site {
    Site::new(
        &Config {
            sites: 6,
            pages: 600,
            ..Config::default()
        },
        index,
    )
}

#[test]
fn articles_have_realistic_shape() {
    let site = site(0);
    let articles: Vec<Article> = (0..60).map(|j| Article::new(&site, j)).collect();
    for article in &articles {
        let paragraphs = article
            .body
            .iter()
            .filter(|b| matches!(b, Block::Paragraph(_)))
            .count();
        assert!((3..=30).contains(&paragraphs));
        assert_eq!(article.headline, headline(&site, article.index));
        assert!(article.standfirst.ends_with('.'));
    }
    let has = |f: fn(&Block) -> bool| articles.iter().any(|a| a.body.iter().any(f));
    assert!(has(|b| matches!(b, Block::Heading(_))) && has(|b| matches!(b, Block::List { .. })));
    assert!(
        has(|b| matches!(b, Block::Table { .. })) && has(|b| matches!(b, Block::Figure { .. }))
    );
    assert!(articles.iter().any(|a| a.feature) && articles.iter().any(|a| a.update.is_some()));
}

#[test]
fn typos_swap_two_letters_of_one_paragraph() {
    for index in [0, 1, 2, 3, 4, 5] {
        let site = site(index);
        let mut found = 0;
        for j in 0..40 {
            let article = Article::new(&site, j);
            let Some((at, typo)) = &article.typo else {
                continue;
            };
            let Block::Paragraph(clean) = &article.body[*at] else {
                panic!("typo outside a paragraph")
            };
            let differing: Vec<(char, char)> = clean
                .chars()
                .zip(typo.chars())
                .filter(|(a, b)| a != b)
                .collect();
            assert_eq!(differing.len(), 2, "{clean} / {typo}");
            assert_eq!(differing[0], (differing[1].1, differing[1].0));
            found += 1;
        }
        assert!(found > 3, "site {index}: {found}");
    }
}

#[test]
fn comments_arrive_over_time() {
    let site = site(0);
    let article = (0..50)
        .map(|j| Article::new(&site, j))
        .find(|a| a.comments > 5)
        .unwrap();
    let early = article.comments_before(&site, article.published.plus(DAY));
    let late = article.comments_before(&site, article.published.plus(400 * DAY));
    assert!(early.len() < late.len() && late.len() as u32 == article.comments);
    assert!(late.windows(2).all(|w| w[0].at < w[1].at));
    assert!(
        early
            .iter()
            .map(|c| &c.text)
            .eq(late[..early.len()].iter().map(|c| &c.text))
    );
}
