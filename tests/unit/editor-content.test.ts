// The editors' projects and imported HTML cleaned of anything that could make script in the console's
// canvas (app/services/editor-content.server.ts): each vector of the stored-script attack, in the shapes
// GrapesJS reads (pages → frames → component trees, legacy `components`, HTML strings, JSON text).
import { describe, expect, it } from "vitest";
import { cleanHtml, cleanProject, isSafeUrl } from "~/services/editor-content.server";

type Json = Record<string, any>;

const project = (components: unknown[]) => ({ pages: [{ frames: [{ component: { type: "wrapper", components } }] }] });
/** The wrapper's components after cleaning a project made of them. */
const cleaned = (components: unknown[]): Json[] =>
  (JSON.parse(cleanProject(JSON.stringify(project(components)))!) as Json).pages[0].frames[0].component.components;
const heading = { tagName: "h1", type: "text", components: [{ type: "textnode", content: "Karibu" }] };

describe("cleanProject: script components", () => {
  it("removes a script component with a data: URL, keeping the page around it", () => {
    expect(cleaned([heading, { type: "script", attributes: { src: "data:text/javascript,alert(1)" } }])).toEqual([heading]);
  });

  it("removes script components nested at any depth, by type or by tag name in any case", () => {
    const nested = {
      tagName: "section",
      components: [
        { tagName: "div", components: [{ type: "script", components: [{ type: "textnode", content: "alert(1)" }] }, heading] },
        { tagName: " SCRIPT ", attributes: { src: "/x.js" } },
        { tagName: "Script" },
        { type: "Script" },
      ],
    };
    expect(cleaned([nested])).toEqual([{ tagName: "section", components: [{ tagName: "div", components: [heading] }] }]);
  });

  it("removes SVG script, tags that load other documents and data-bound components", () => {
    const svg = {
      type: "svg",
      tagName: "svg",
      components: [{ tagName: "script", components: [{ type: "textnode", content: "alert(1)" }] }, { tagName: "rect" }],
    };
    const loaders = ["base", "meta", "link", "object", "embed", "frameset", "animate", "set"].map((tagName) => ({ tagName }));
    const bound = { type: "data-variable", dataResolver: { path: "x", defaultValue: "<img src=x onerror=alert(1)>" } };
    expect(cleaned([svg, ...loaders, bound, { tagName: "img src=x onerror=alert(1)" }])).toEqual([
      { type: "svg", tagName: "svg", components: [{ tagName: "rect" }] },
    ]);
  });

  it("cleans the canvas head and symbols too", () => {
    const wrapper = { type: "wrapper", head: { type: "head", components: [{ tagName: "script", attributes: { src: "/x.js" } }] } };
    const text = JSON.stringify({ pages: [{ frames: [{ component: wrapper }] }], symbols: [{ type: "script" }, heading] });
    expect(JSON.parse(cleanProject(text)!)).toEqual({
      pages: [{ frames: [{ component: { type: "wrapper", head: { type: "head", components: [] } } }] }],
      symbols: [heading],
    });
  });
});

describe("cleanProject: properties and attributes", () => {
  it("removes script, script-export and script-props properties", () => {
    const widget = { tagName: "div", attributes: { id: "w" }, script: "window.top.x = 1", "script-export": "f", "script-props": ["a"] };
    expect(cleaned([widget])).toEqual([{ tagName: "div", attributes: { id: "w" } }]);
  });

  it("removes every on… attribute, in any case, and srcdoc", () => {
    const img = {
      tagName: "img",
      attributes: { src: "/logo.png", alt: "Logo", onload: "a()", OnError: "b()", ONCLICK: "c()", " onfocus": "d()" },
    };
    const frame = { tagName: "iframe", attributes: { srcdoc: "<script>alert(1)</script>", title: "Map" } };
    expect(cleaned([img, frame])).toEqual([
      { tagName: "img", attributes: { src: "/logo.png", alt: "Logo" } },
      { tagName: "iframe", attributes: { title: "Map" } },
    ]);
  });

  it("removes javascript: and vbscript: URLs however they are written, and data: outside an image's src", () => {
    const urls = [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "  javascript:alert(1)",
      "\u0001\tjavascript:alert(1)",
      "java\nscript:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html,<script>alert(1)</script>",
      "DATA:text/javascript,alert(1)",
    ];
    for (const url of urls) {
      const attrs = ["href", "src", "action", "formaction", "xlink:href", "poster", "data", "background"];
      const component = { tagName: "a", attributes: Object.fromEntries(attrs.map((a) => [a, url])) };
      expect(cleaned([component]), url).toEqual([{ tagName: "a", attributes: {} }]);
    }
    // Any attribute holding a script URL goes (an SVG animation's values, an unknown name).
    expect(cleaned([{ tagName: "div", attributes: { "x-target": " javascript:alert(1)", title: "Hello" } }])).toEqual([
      { tagName: "div", attributes: { title: "Hello" } },
    ]);
  });

  it("keeps http(s), mailto, tel, relative URLs and placeholders", () => {
    const links = [
      "https://example.com/a?b=1",
      "http://x",
      "mailto:a@b.co",
      "tel:+254700000000",
      "/assets/x.png",
      "#top",
      "{{ config.link }}",
    ];
    const components = links.map((href) => ({ tagName: "a", attributes: { href } }));
    expect(cleaned(components)).toEqual(components);
  });

  it("keeps data:image/… in an image's src, property or attribute, and SVG markup GrapesJS draws as an image", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    const svg = "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>";
    const components = [
      { tagName: "img", attributes: { src: png } },
      { type: "image", src: svg, fallback: "<svg viewBox='0 0 24 24'></svg>" },
    ];
    expect(cleaned(components)).toEqual(components);
    // Not in a link, a frame or a video's poster, and never another data: type in an image.
    expect(
      cleaned([
        { tagName: "a", attributes: { href: png } },
        { type: "iframe", src: png },
        { tagName: "video", attributes: { poster: png } },
        { type: "image", src: "data:text/html,<b>x</b>" },
      ]),
    ).toEqual([{ tagName: "a", attributes: {} }, { type: "iframe" }, { tagName: "video", attributes: {} }, { type: "image" }]);
  });

  it("removes attribute values and URL properties that are data bindings, not text", () => {
    const bound = { type: "data-variable", path: "x", defaultValue: "javascript:alert(1)" };
    expect(cleaned([{ tagName: "img", type: "image", src: bound, attributes: { src: bound, alt: "x", width: 20, hidden: true } }])).toEqual(
      [{ tagName: "img", type: "image", attributes: { alt: "x", width: 20, hidden: true } }],
    );
  });

  it("removes markup from labels the editor shows as HTML, toolbars, icons and traits with markup", () => {
    const component = {
      tagName: "div",
      name: "<img src=x onerror=alert(1)>Box",
      icon: "<img src=x onerror=alert(1)>",
      toolbar: [{ label: "<img src=x onerror=alert(1)>", command: "tlb-move" }],
      traits: [
        "id",
        "title",
        "<img src=x onerror=1>",
        { name: "href", label: "<b onmouseover=1>Link</b>" },
        { name: "target", type: "select" },
      ],
    };
    expect(cleaned([component])).toEqual([
      { tagName: "div", name: "img src=x onerror=alert(1)Box", traits: ["id", "title", { name: "target", type: "select" }] },
    ]);
  });

  it("leaves CSS alone, also where a property is called content", () => {
    const styles = [{ selectors: ["note"], style: { content: '"<b>"', color: "red" } }];
    const text = JSON.stringify({ ...project([{ tagName: "p", style: { content: "'<'" } }]), styles });
    expect(cleanProject(text)).toBe(text);
  });
});

describe("cleanProject: HTML strings and other shapes", () => {
  it("cleans components and content given as HTML, and a frame's component given as HTML", () => {
    const html = '<img src="/a.png" onerror="alert(1)"><script>alert(2)</script><p>Hi</p>';
    expect(
      cleaned([
        { tagName: "div", components: html },
        { tagName: "div", type: "text", content: html },
      ]),
    ).toEqual([
      { tagName: "div", components: '<img src="/a.png"><p>Hi</p>' },
      { tagName: "div", type: "text", content: '<img src="/a.png"><p>Hi</p>' },
    ]);
    const frame = JSON.stringify({
      pages: [{ component: html, frames: [{ component: `<iframe srcdoc="<script>x</script>"></iframe>${html}` }] }],
    });
    expect(JSON.parse(cleanProject(frame)!)).toEqual({
      pages: [{ component: '<img src="/a.png"><p>Hi</p>', frames: [{ component: '<img src="/a.png"><p>Hi</p>' }] }],
    });
  });

  it("keeps a text node's content, which GrapesJS treats as text, and takes the markup out of a comment", () => {
    expect(
      cleaned([
        { type: "textnode", content: "5 < 6 & <b>not bold</b>" },
        { type: "comment", content: "--><img src=x onerror=alert(1)>" },
      ]),
    ).toEqual([
      { type: "textnode", content: "5 < 6 & <b>not bold</b>" },
      { type: "comment", content: "--img src=x onerror=alert(1)" },
    ]);
  });

  it("cleans the legacy shapes: components as an array, as HTML, and parts given as JSON text", () => {
    const legacy = JSON.stringify({ components: [heading, { type: "script" }], styles: [] });
    expect(JSON.parse(cleanProject(legacy)!)).toEqual({ components: [heading], styles: [] });
    const asHtml = JSON.stringify({ components: "<h1>Karibu</h1><script>alert(1)</script>" });
    expect(JSON.parse(cleanProject(asHtml)!)).toEqual({ components: "<h1>Karibu</h1>" });
    const asText = JSON.stringify({ pages: JSON.stringify(project([{ type: "script" }, heading]).pages) });
    expect(JSON.parse(cleanProject(asText)!)).toEqual(project([heading]));
    // A designer's JSON that is an array is walked like the rest.
    expect(JSON.parse(cleanProject(JSON.stringify([{ type: "script" }, heading]))!)).toEqual([heading]);
  });

  it("drops the project's assets and data sources (the editors list the organisation's images themselves)", () => {
    const text = JSON.stringify({
      assets: [{ type: "image", src: "x');\"><img src=x onerror=alert(1)>" }],
      dataSources: [{ id: "d", records: [{ id: "r", html: "<img src=x onerror=alert(1)>" }] }],
      ...project([heading]),
    });
    expect(JSON.parse(cleanProject(text)!)).toEqual(project([heading]));
  });

  it("gives back the very same text when there is nothing to remove", () => {
    const text = JSON.stringify(project([heading, { tagName: "a", attributes: { href: "https://example.com" } }]), null, 2);
    expect(cleanProject(text)).toBe(text);
    expect(cleanProject(null)).toBeNull();
  });

  it("answers null for text that is not a JSON object or array, and leaves out what is nested absurdly deep", () => {
    for (const text of ["", "{", "42", '"<script>"', "null"]) expect(cleanProject(text), text).toBeNull();
    const deep = `{"pages":[{"frames":[{"component":{"components":[${"[".repeat(5000)}${"]".repeat(5000)}]}}]}]}`;
    const result = JSON.parse(cleanProject(deep)!);
    expect(result.pages[0].frames[0].component.components).toHaveLength(1);
    expect(JSON.stringify(result).length).toBeLessThan(1000);
  });
});

describe("cleanHtml", () => {
  it("removes script elements with everything in them, however they are written", () => {
    expect(cleanHtml("<p>a</p><script>alert(1)</script><SCRIPT src=/x.js></SCRIPT><script>never closed")).toBe("<p>a</p>");
    expect(cleanHtml("<scr<script>ipt>alert(1)</script>")).toBe("ipt&gt;alert(1)");
  });

  it("removes event handlers in any case and srcdoc frames", () => {
    expect(
      cleanHtml('<img src=x onerror=alert(1)><IMG SRC="y" OnLoad="alert(2)"><iframe srcdoc="<script>alert(3)</script>"></iframe>'),
    ).toBe('<img src="x"><img src="y">');
  });

  it("removes script URLs also written with character references, tabs or spaces", () => {
    const links = [
      '<a href=" JaVaScRiPt:alert(1)">a</a>',
      '<a href="&#106;avascript:alert(1)">a</a>',
      '<a href="&#x6A;avascript&#58;alert(1)">a</a>',
      '<a href="javascript&colon;alert(1)">a</a>',
      '<a href="java&Tab;script:alert(1)">a</a>',
      '<a href="java&#x09;script:alert(1)">a</a>',
      '<a href="vbscript:msgbox(1)">a</a>',
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a</a>',
      '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">a</button></form>',
    ];
    for (const link of links) expect(cleanHtml(link), link).toMatch(/^(<form><button>a<\/button><\/form>|<a>a<\/a>)$/);
  });

  it("keeps safe links and data:image/… in an image's src (written back escaped)", () => {
    expect(cleanHtml('<a href="https://example.com/?a=1&amp;b=2" target=_blank>x</a>')).toBe(
      '<a href="https://example.com/?a=1&amp;b=2" target="_blank">x</a>',
    );
    expect(cleanHtml("<img src='data:image/svg+xml,<svg onload=alert(1)>'>")).toBe(
      '<img src="data:image/svg+xml,&lt;svg onload=alert(1)&gt;">',
    );
  });

  it("leaves out frames, objects, SVG and MathML with their content, and templates and comments", () => {
    const html =
      '<iframe src="https://example.com"></iframe><object data="x.swf"></object><embed src="x">' +
      "<svg><style><img src=x onerror=alert(1)></style></svg><math><mi>x</mi></math>" +
      "<template><img src=x onerror=alert(1)></template><!-- <img src=x onerror=1> --><p>kept</p>";
    expect(cleanHtml(html)).toBe("<p>kept</p>");
  });

  it("cannot be confused by text elements: noscript, textarea, title and style end where browsers end them", () => {
    expect(cleanHtml('<noscript><p title="</noscript><img src=x onerror=alert(1)>">')).toBe('<img src="x">"&gt;');
    expect(cleanHtml("<textarea></textarea><img src=x onerror=alert(1)></textarea>")).toBe('<textarea></textarea><img src="x">');
    expect(cleanHtml("<textarea><img src=x onerror=alert(1)></textarea>")).toBe("<textarea>&lt;img src=x onerror=alert(1)&gt;</textarea>");
    expect(cleanHtml("<title><img src=x onerror=1></title>x")).toBe("x");
    // CSS keeps its text but no "<", so nothing in it can end the element (an SVG parent reads style as markup).
    expect(cleanHtml("<style>a>b{color:red}</style>")).toBe("<style>a>b{color:red}</style>");
    expect(cleanHtml('<style>p{content:"<img src=x onerror=1>"}</style>')).toBe('<style>p{content:"\\3c img src=x onerror=1>"}</style>');
  });

  it("drops GrapesJS's data-gjs-* attributes (read back as component properties) and unknown tags, keeping their text", () => {
    expect(cleanHtml('<div data-gjs-type="script" data-gjs-script="alert(1)" data-id="1" class="a">d</div>')).toBe(
      '<div data-id="1" class="a">d</div>',
    );
    expect(cleanHtml('<data-variable default-value="x">Hello</data-variable> <o:p>there</o:p>')).toBe("Hello there");
    expect(
      cleanHtml(
        '<html><head><title>T</title><meta http-equiv="refresh" content="0;url=/x"></head><body onload="alert(1)"><h1>x</h1></body></html>',
      ),
    ).toBe("<h1>x</h1>");
  });

  it("writes text escaped and elements balanced, keeping character references", () => {
    expect(cleanHtml("<p>Caf&eacute; &copy; 5 < 6 & 7 > 3")).toBe("<p>Caf&eacute; &copy; 5 &lt; 6 &amp; 7 &gt; 3</p>");
    expect(cleanHtml("<div><p>one<b>two</div>three</p>")).toBe("<div><p>one<b>two</b></p></div>three");
    expect(cleanHtml(`<p title='a"b' title="second" lang=sw>q</p>`)).toBe('<p title="a&quot;b" lang="sw">q</p>');
  });

  it("is fast on a large page", () => {
    const page = '<table><tr><td style="padding:8px"><a href="https://example.com">Link</a> &amp; text</td></tr></table>'.repeat(10_000);
    const started = performance.now();
    expect(cleanHtml(page)).toBe(page);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("isSafeUrl: relative, placeholders and listed schemes pass; others fail", () => {
    expect(isSafeUrl("images/a.png")).toBe(true);
    expect(isSafeUrl("{{ config.url }}")).toBe(true);
    expect(isSafeUrl("cid:logo@mail")).toBe(true);
    expect(isSafeUrl("ftp://x")).toBe(false);
    expect(isSafeUrl("blob:https://x/1")).toBe(false);
    expect(isSafeUrl("data:image/png;base64,AA")).toBe(false);
    expect(isSafeUrl("data:image/png;base64,AA", true)).toBe(true);
    expect(isSafeUrl("data:text/html,x", true)).toBe(false);
  });
});
