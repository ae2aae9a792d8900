import type { SplashTemplate } from "./index";

// A calm, classic page: a brand band with the hotel's name in a serif face, and the connect form
// in a card that overlaps it. Styled with Bootstrap 4.6 classes; the colours come from the
// operator's options through --primary and --bg.
const LOGO =
  "data:image/svg+xml,%3Csvg%20xmlns%3D'http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg'%20viewBox%3D'0%200%2064%2064'%3E%3Crect%20width%3D'64'%20height%3D'64'%20rx%3D'14'%20fill%3D'%231e3a5f'%2F%3E%3Cpath%20d%3D'M10%2027c6-9%2038-9%2044%200z'%20fill%3D'%23d6b36a'%2F%3E%3Cpath%20d%3D'M32%2027v24m0-14-8-10m8%206%209-6'%20fill%3D'none'%20stroke%3D'%23d6b36a'%20stroke-width%3D'3'%20stroke-linecap%3D'round'%2F%3E%3Cpath%20d%3D'M14%2051h36'%20stroke%3D'%23d6b36a'%20stroke-width%3D'2'%20stroke-linecap%3D'round'%2F%3E%3C%2Fsvg%3E";

const html = `<div class="hotel" style="--primary: {{ config.primary_color }}; --bg: {{ config.background_color }}">
<header class="hotel-hero text-center text-white">
<div class="container">
<img class="hotel-logo shadow" src="{{ config.logo_url }}" alt="{{ config.venue_name }} logo" width="76" height="76">
<p class="hotel-kicker text-uppercase small font-weight-bold mt-4 mb-2">Welcome to</p>
<h1 class="hotel-title mb-3">{{ config.venue_name }}</h1>
<p class="lead hotel-lead mx-auto mb-0">{{ config.welcome_text }}</p>
</div>
</header>
<main class="container hotel-main">
<div class="row justify-content-center">
<div class="col-md-8 col-lg-6 col-xl-5">
<section class="card border-0 shadow hotel-card" aria-labelledby="hotel-wifi">
<div class="card-body p-4">
<h2 id="hotel-wifi" class="h4 hotel-title mb-1">Guest Wi-Fi</h2>
<p class="text-muted mb-2">Complimentary for our guests and visitors.</p>
<div class="mlango-connect">{{ connect_form }}</div>
</div>
<div class="card-footer hotel-note d-flex align-items-start small">
<svg aria-hidden="true" class="flex-shrink-0 mr-2" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="12" r="9"/><path d="M12 11v6M12 7.5v.5"/></svg>
<p class="mb-0">{{ config.checkout_note }}</p>
</div>
</section>
</div>
</div>
</main>
</div>`;

const css = `.hotel{min-height:100vh;overflow-wrap:break-word;padding-bottom:3rem;background:var(--bg);color:#1f2937;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.hotel-hero{padding:2.75rem 0 6.5rem;background:var(--primary);border-bottom:4px solid #c9a55a}
.hotel-logo{width:76px;height:76px;padding:6px;border-radius:18px;background:#fff;object-fit:contain}
.hotel-kicker{letter-spacing:.2em;opacity:.85}
.hotel-title{font-family:Georgia,"Times New Roman","Noto Serif",serif;font-weight:700}
h1.hotel-title{font-size:2.1rem;line-height:1.15}
.hotel-lead{max-width:34rem;font-size:1.1rem;font-weight:400}
.hotel-main{margin-top:-4.5rem}
.hotel-card{border-radius:.9rem;overflow:hidden}
.hotel-card h2{color:var(--primary)}
.hotel-note{color:#4b5563;background:#f9fafb;border-top:1px solid #e5e7eb;padding:.9rem 1.5rem}
.mlango-connect .mlango-form{max-width:none;margin:0;padding:0;color:inherit;font:inherit;text-align:left;background:none;border-radius:0;box-shadow:none}
.mlango-connect .mlango-form>h2,.mlango-connect .mlango-form>.venue{display:none}
.mlango-connect label{display:block;margin:.85rem 0 .3rem;font-size:.9rem;font-weight:600;color:#374151}
.mlango-connect input[type=text],.mlango-connect input[type=email],.mlango-connect input[type=tel]{display:block;width:100%;padding:.65rem .75rem;font:inherit;color:#111827;background:#fff;border:1px solid #9ca3af;border-radius:.4rem}
.mlango-connect input:focus,.mlango-connect button:focus,.mlango-connect a:focus{outline:3px solid var(--primary);outline-offset:2px}
.mlango-connect .check{display:flex;align-items:flex-start;font-weight:400;color:#4b5563}
.mlango-connect .check input{flex-shrink:0;margin:.3rem .6rem 0 0;width:1.05rem;height:1.05rem;accent-color:var(--primary)}
.mlango-connect button,.mlango-connect .btn{display:block;width:100%;margin-top:1.1rem;padding:.75rem 1rem;font:inherit;font-weight:600;letter-spacing:.02em;text-align:center;text-decoration:none;white-space:normal;color:#fff;background:var(--primary);border:0;border-radius:.4rem;cursor:pointer}
.mlango-connect .btn.alt,.mlango-connect .btn.alt:hover{color:#1f2937;background:#fff;border:1px solid #9ca3af}
.mlango-connect button:hover{color:#fff;filter:brightness(1.15)}
.mlango-connect .or{margin:1rem 0 0;text-align:center;font-size:.85rem;color:#6b7280}
.mlango-connect small{font-size:inherit;color:#4b5563}
.mlango-connect a{color:var(--primary);text-decoration:underline}
.mlango-connect .alert{margin-bottom:.75rem;padding:.75rem;color:#991b1b;background:#fef2f2;border:1px solid #fecaca;border-radius:.4rem}
.mlango-connect .alert.ok{color:#166534;background:#f0fdf4;border-color:#bbf7d0}
.mlango-connect .alert p{margin:.2rem 0}
.mlango-connect .err{margin:.3rem 0 0;font-size:.85rem;color:#b91c1c}
@media (min-width:768px){.hotel-hero{padding:4rem 0 7.5rem}h1.hotel-title{font-size:3rem}}`;

export const template: SplashTemplate = {
  id: "hotel",
  name: "Hotel",
  description: "A calm, classic page for hotels and lodges, with the connect form in a card and a check-out note.",
  cssTemplate: "bootstrap4.css",
  html,
  css,
  scripts: "",
  configs: [
    { name: "venue_name", title: "Venue name", defaultValue: "The Acacia Hotel" },
    {
      name: "welcome_text",
      title: "Welcome message",
      defaultValue: "Stay connected during your stay: fast, free Wi-Fi in every room, by the pool and in the restaurant.",
    },
    { name: "logo_url", title: "Logo image (URL or data: URI)", defaultValue: LOGO },
    { name: "primary_color", title: "Brand colour (dark enough for white text)", defaultValue: "#1e3a5f" },
    { name: "background_color", title: "Page background colour (light)", defaultValue: "#f5f1e8" },
    { name: "checkout_note", title: "Note for guests", defaultValue: "Check-out is at 11:00. Need help? Dial 0 from your room phone." },
  ],
};
