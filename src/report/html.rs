//! Self-contained HTML pages from the Markdown reports (`report.html`, `sweep.html`): the
//! Markdown is rendered with `pulldown-cmark` (tables included) and every chart it links is put
//! inline — SVG as markup, PNG as a `data:` URI — so the page keeps its charts when shared,
//! needs no network, and prints on paper.

use base64::Engine;
use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};
use std::io;
use std::path::Path;

/// The page's style: readable on screen, tables that fit, charts that scale, no page breaks
/// inside a chart when printed.
const STYLE: &str = "body{font-family:sans-serif;max-width:1150px;margin:2em auto;padding:0 1em;\
color:#222;line-height:1.45}table{border-collapse:collapse;font-size:90%;margin:1em 0}\
td,th{border:1px solid #bbb;padding:3px 6px}th{background:#f0f0f0}\
figure,svg,img{max-width:100%;height:auto}figure{margin:1.5em 0;page-break-inside:avoid}\
code{background:#f3f3f3;padding:0 3px;overflow-wrap:break-word}\
figure.board{display:inline-block;width:48%;margin:.5em 1% .5em 0;vertical-align:top}pre{white-space:pre-wrap}\
@media print{body{max-width:none;margin:0}}";

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart file `name` in `dir` as inline HTML; `None` for anything that is not a local
/// SVG or PNG file of the folder (left as a link).
fn inline_chart(dir: &Path, name: &str, alt: &str) -> io::Result<Option<String>> {
    if name.contains('/') || name.contains('\\') || name.contains(':') {
        return Ok(None);
    }
    let path = dir.join(name);
    if name.ends_with(".svg") {
        let svg = std::fs::read_to_string(&path)?;
        let body = svg.find("<svg").map_or(svg.as_str(), |k| &svg[k..]);
        // the boards of an example game sit side by side
        let class = if name.starts_with("example-") {
            " class=\"board\""
        } else {
            ""
        };
        Ok(Some(format!(
            "<figure{class} role=\"img\" aria-label=\"{}\">{body}</figure>",
            escape(alt)
        )))
    } else if name.ends_with(".png") {
        let bytes = std::fs::read(&path)?;
        Ok(Some(format!(
            "<figure><img alt=\"{}\" src=\"data:image/png;base64,{}\"></figure>",
            escape(alt),
            base64::engine::general_purpose::STANDARD.encode(bytes)
        )))
    } else {
        Ok(None)
    }
}

/// A complete HTML page titled `title` from `markdown`, whose image links name chart files in
/// `dir`: those are inlined.
pub fn page(dir: &Path, title: &str, markdown: &str) -> io::Result<String> {
    let mut events: Vec<Event> = Vec::new();
    let mut parser = Parser::new_ext(markdown, Options::ENABLE_TABLES);
    while let Some(e) = parser.next() {
        match e {
            Event::Start(Tag::Image { dest_url, .. }) => {
                // the alt text is the events up to the image's end
                let mut alt = String::new();
                for inner in parser.by_ref() {
                    match inner {
                        Event::End(TagEnd::Image) => break,
                        Event::Text(t) | Event::Code(t) => alt.push_str(&t),
                        _ => {}
                    }
                }
                let html = match inline_chart(dir, &dest_url, &alt)? {
                    Some(h) => h,
                    None => format!("<a href=\"{}\">{}</a>", escape(&dest_url), escape(&alt)),
                };
                events.push(Event::Html(CowStr::from(html)));
            }
            other => events.push(other),
        }
    }
    let mut body = String::new();
    html::push_html(&mut body, events.into_iter());
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style></head><body>\n{body}</body></html>\n",
        escape(title)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_inlined_and_tables_rendered() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.svg"),
            "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>",
        )
        .unwrap();
        std::fs::write(dir.path().join("b.png"), [137u8, 80, 78, 71]).unwrap();
        let md = "# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![chart A](a.svg)\n\n![chart B](b.png)\n\n![web](http://x/y.svg)\n";
        let html = page(dir.path(), "T & co", md).unwrap();
        assert!(html.contains("<title>T &amp; co</title>"));
        // code (a trace command) wraps between words, not inside them (issue 43: "meepl ab")
        assert!(!html.contains("break-all") && html.contains("overflow-wrap:break-word"));
        assert!(html.contains("<table>") && html.contains("<td>1</td>"));
        assert!(html.contains("<svg xmlns") && !html.contains("<?xml"));
        assert!(html.contains("aria-label=\"chart A\""));
        assert!(html.contains("src=\"data:image/png;base64,iVBORw==\""));
        assert!(
            html.contains("<a href=\"http://x/y.svg\">web</a>"),
            "{html}"
        );
        assert!(!html.contains("src=\"a.svg\""));
    }
}
