import type { SplashTemplate } from "./index";

// A warm, split layout: the brand panel beside the form on wide screens, above it on phones.
// Styled with Tailwind v3 utility classes (compiled from this HTML when the page is published);
// the colours come from the operator's options through --primary and --bg.
const LOGO =
  "data:image/svg+xml,%3Csvg%20xmlns%3D'http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg'%20viewBox%3D'0%200%2064%2064'%3E%3Ccircle%20cx%3D'32'%20cy%3D'32'%20r%3D'32'%20fill%3D'%237c2d12'%2F%3E%3Cpath%20d%3D'M17%2027h26v9a11%2011%200%200%201-11%2011h-4a11%2011%200%200%201-11-11z'%20fill%3D'%23fdf6ec'%2F%3E%3Cpath%20d%3D'M43%2030h3a5%205%200%200%201%200%2010h-3'%20fill%3D'none'%20stroke%3D'%23fdf6ec'%20stroke-width%3D'3'%2F%3E%3Cpath%20d%3D'M25%2013c-3%203%203%206%200%209m7-9c-3%203%203%206%200%209'%20fill%3D'none'%20stroke%3D'%23fdba74'%20stroke-width%3D'2.5'%20stroke-linecap%3D'round'%2F%3E%3C%2Fsvg%3E";

const html = `<div class="cafe min-h-screen md:flex" style="--primary: {{ config.primary_color }}; --bg: {{ config.background_color }}">
<header class="cafe-hero text-white px-6 pt-10 pb-20 md:w-5/12 md:flex md:flex-col md:justify-center md:px-12 md:py-16 lg:px-20">
<img src="{{ config.logo_url }}" alt="{{ config.venue_name }} logo" width="72" height="72" class="w-16 h-16 md:w-20 md:h-20 rounded-full bg-white p-1 shadow-lg object-contain">
<h1 class="mt-5 text-3xl md:text-5xl font-extrabold leading-tight tracking-tight">{{ config.venue_name }}</h1>
<p class="mt-3 max-w-md text-lg leading-relaxed">{{ config.welcome_text }}</p>
<p class="cafe-hours mt-6 inline-flex items-center gap-2 self-start rounded-full px-4 py-2 text-sm font-semibold"><svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/></svg><span>{{ config.opening_hours }}</span></p>
</header>
<main class="px-4 pb-12 -mt-12 md:mt-0 md:flex-1 md:flex md:items-center md:justify-center md:p-12">
<section class="cafe-card mx-auto w-full max-w-md rounded-2xl bg-white p-6 sm:p-8 shadow-xl" aria-labelledby="cafe-wifi">
<div class="flex items-center gap-3">
<span class="cafe-badge flex h-11 w-11 shrink-0 items-center justify-center rounded-full" aria-hidden="true"><svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"><path d="M2 9a15 15 0 0 1 20 0M5 12.5a10 10 0 0 1 14 0M8.5 16a5 5 0 0 1 7 0"/><circle cx="12" cy="19.5" r="1" fill="currentColor"/></svg></span>
<div><h2 id="cafe-wifi" class="text-xl font-bold text-stone-900">Free Wi-Fi</h2>
<p class="text-sm text-stone-600">On the house while you enjoy your visit.</p></div>
</div>
<div class="mlango-connect mt-5">{{ connect_form }}</div>
</section>
</main>
</div>`;

const css = `.cafe{overflow-wrap:break-word;background:var(--bg);color:#1c1917;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.cafe-hero{background-color:var(--primary);background-image:radial-gradient(rgba(255,255,255,.09) 1.5px,transparent 1.5px);background-size:16px 16px}
.cafe-hours{background:rgba(0,0,0,.22)}
.cafe-badge{background:var(--bg);color:var(--primary)}
.cafe-card{border-top:5px solid var(--primary)}
.mlango-connect .mlango-form{max-width:none;margin:0;padding:0;color:inherit;font:inherit;text-align:left;background:none;border-radius:0;box-shadow:none}
.mlango-connect .mlango-form>h2,.mlango-connect .mlango-form>.venue{display:none}
.mlango-connect label{display:block;margin:.9rem 0 .3rem;font-size:.9rem;font-weight:600;color:#292524}
.mlango-connect input[type=text],.mlango-connect input[type=email],.mlango-connect input[type=tel]{display:block;width:100%;padding:.7rem .8rem;font:inherit;color:#1c1917;background:#fafaf9;border:1px solid #a8a29e;border-radius:.6rem}
.mlango-connect input:focus,.mlango-connect button:focus,.mlango-connect a:focus{outline:3px solid var(--primary);outline-offset:2px}
.mlango-connect .check{display:flex;gap:.6rem;align-items:flex-start;font-weight:400;color:#44403c}
.mlango-connect .check input{margin-top:.3rem;width:1.1rem;height:1.1rem;accent-color:var(--primary)}
.mlango-connect button,.mlango-connect .btn{display:block;width:100%;margin-top:1.1rem;padding:.8rem 1rem;font:inherit;font-weight:700;text-align:center;text-decoration:none;color:#fff;background:var(--primary);border:0;border-radius:999px;cursor:pointer}
.mlango-connect .btn.alt{color:#1c1917;background:#fff;border:1px solid #a8a29e;font-weight:600}
.mlango-connect .or{margin:1rem 0 0;text-align:center;font-size:.85rem;color:#57534e}
.mlango-connect small{font-size:inherit;color:#57534e}
.mlango-connect a{color:var(--primary)}
.mlango-connect .alert{margin-bottom:.75rem;padding:.75rem;color:#991b1b;background:#fef2f2;border:1px solid #fecaca;border-radius:.6rem}
.mlango-connect .alert.ok{color:#166534;background:#f0fdf4;border-color:#bbf7d0}
.mlango-connect .alert p{margin:.2rem 0}
.mlango-connect .err{margin:.3rem 0 0;font-size:.85rem;color:#b91c1c}`;

export const template: SplashTemplate = {
  id: "cafe",
  name: "Café",
  description: "A warm coffee-shop page with the brand panel beside the connect form and the opening hours.",
  cssTemplate: "tailwind.css",
  html,
  css,
  scripts: "",
  configs: [
    { name: "venue_name", title: "Venue name", defaultValue: "Kahawa Corner" },
    {
      name: "welcome_text",
      title: "Welcome message",
      defaultValue: "Pull up a chair, order something warm and get online. Our Wi-Fi is free for every guest.",
    },
    { name: "logo_url", title: "Logo image (URL or data: URI)", defaultValue: LOGO },
    { name: "primary_color", title: "Brand colour (dark enough for white text)", defaultValue: "#7c2d12" },
    { name: "background_color", title: "Page background colour (light)", defaultValue: "#fdf6ec" },
    { name: "opening_hours", title: "Opening hours", defaultValue: "Open daily, 7:00 – 21:00" },
  ],
};
