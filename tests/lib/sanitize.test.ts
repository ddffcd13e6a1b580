// HTML from other servers keeps only what Mastodon serves: hostile markup never reaches a client.
import { expect, test } from "bun:test";
import { plainText, sanitizeHtml } from "../../src/lib/sanitize.ts";

test("scripts, styles and frames go with their content; event handlers and images go", () => {
  expect(sanitizeHtml('<script>alert(1)</script><p>ok<img src=x onerror="alert(1)"></p><style>p{}</style><iframe src="x">in</iframe>')).toBe("<p>ok</p>");
  expect(sanitizeHtml('<p onclick="x" style="color:red">hi</p>')).toBe("<p>hi</p>");
  expect(sanitizeHtml("<svg><script>alert(1)</script></svg>after")).toBe("after");
});

test("links only to http(s), with rel and target set and Mastodon's classes kept", () => {
  expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe("x");
  expect(sanitizeHtml('<a href="data:text/html,hi">x</a>')).toBe("x");
  expect(sanitizeHtml('<a href="https://e.x/@a" class="u-url mention evil" onclick="x">@a</a>')).toBe(
    '<a href="https://e.x/@a" rel="nofollow noopener noreferrer" target="_blank" class="u-url mention">@a</a>',
  );
  expect(sanitizeHtml('<a href="https://e.x/a&quot;onmouseover=&quot;x">y</a>')).toBe(
    '<a href="https://e.x/a%22onmouseover=%22x" rel="nofollow noopener noreferrer" target="_blank">y</a>',
  );
});

test("other elements are unwrapped, text is escaped, unclosed tags are closed", () => {
  expect(sanitizeHtml("<div><b>bold</b><br>line &amp; &lt;tag&gt;</div>")).toBe("<b>bold</b><br />line &amp; &lt;tag&gt;");
  expect(sanitizeHtml("<p>unclosed <em>em")).toBe("<p>unclosed <em>em</em></p>");
  // Stray closing tags become empty elements, as browsers read them: still well-formed.
  expect(sanitizeHtml("</p></b>text")).toBe("<p></p>text");
});

test("deep nesting cannot grow without bound", () => {
  const deep = "<b>".repeat(10_000) + "x" + "</b>".repeat(10_000);
  expect(sanitizeHtml(deep).match(/<b>/g)!.length).toBeLessThanOrEqual(64);
});

test("plain text fields lose every tag and decode entities; script-like elements go with their text", () => {
  expect(plainText("<b>Al</b>ice &amp; co<script>x</script>")).toBe("Alice & co");
  expect(plainText("<img src=x onerror=alert(1)>Mal<svg><img src=y><style>p{}</style>z</svg>lory<br>!")).toBe("Mallory!");
});
