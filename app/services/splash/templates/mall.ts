import type { SplashTemplate } from "./index";

// A bright, busy-venue page: a bold brand band, then one panel with what's on beside the connect
// form (above it on phones). Styled with Bootstrap 3.4 classes; the colours come from the
// operator's options through --primary and --bg.
const LOGO =
  "data:image/svg+xml,%3Csvg%20xmlns%3D'http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg'%20viewBox%3D'0%200%2064%2064'%3E%3Crect%20width%3D'64'%20height%3D'64'%20rx%3D'16'%20fill%3D'%236d28d9'%2F%3E%3Cpath%20d%3D'M17%2024h30l-2%2027H19z'%20fill%3D'%23fff'%2F%3E%3Cpath%20d%3D'M25%2027v-5a7%207%200%200%201%2014%200v5'%20fill%3D'none'%20stroke%3D'%23fff'%20stroke-width%3D'3'%20stroke-linecap%3D'round'%2F%3E%3Ccircle%20cx%3D'32'%20cy%3D'38'%20r%3D'4'%20fill%3D'%23f472b6'%2F%3E%3C%2Fsvg%3E";

const html = `<div class="mall" style="--primary: {{ config.primary_color }}; --bg: {{ config.background_color }}">
<header class="mall-hero text-center">
<div class="container">
<img class="mall-logo" src="{{ config.logo_url }}" alt="{{ config.venue_name }} logo" width="64" height="64">
<h1>{{ config.venue_name }}</h1>
<p class="lead">{{ config.welcome_text }}</p>
</div>
</header>
<main class="container mall-main">
<div class="row">
<div class="col-md-10 col-md-offset-1 col-lg-8 col-lg-offset-2">
<div class="panel mall-panel">
<aside class="mall-aside" aria-labelledby="mall-on">
<svg aria-hidden="true" class="mall-tag" viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"><path d="M3 12V4h8l10 10-8 8z"/><circle cx="7.5" cy="8.5" r="1.5" fill="currentColor"/></svg>
<h2 id="mall-on" class="h5 text-uppercase">What's on</h2>
<p class="mall-promo">{{ config.promo_text }}</p>
</aside>
<section class="mall-form" aria-labelledby="mall-wifi">
<h2 id="mall-wifi" class="h3">Get online for free</h2>
<p class="text-muted">Connect once and stay online all over {{ config.venue_name }}.</p>
<div class="mlango-connect">{{ connect_form }}</div>
</section>
</div>
</div>
</div>
</main>
</div>`;

const css = `.mall{min-height:100vh;overflow-wrap:break-word;padding-bottom:40px;background:var(--bg);color:#1e1b2e;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:16px}
.mall-hero{padding:36px 0 84px;color:#fff;background-color:var(--primary);background-image:radial-gradient(circle at 8% 20%,rgba(255,255,255,.16) 0 70px,transparent 71px),radial-gradient(circle at 95% 85%,rgba(255,255,255,.12) 0 110px,transparent 111px),radial-gradient(circle at 80% 10%,rgba(0,0,0,.12) 0 40px,transparent 41px)}
.mall-logo{width:72px;height:72px;padding:6px;border-radius:20px;background:#fff;object-fit:contain;box-shadow:0 6px 18px rgba(0,0,0,.25)}
.mall-hero h1{margin:16px 0 8px;font-size:32px;font-weight:800;letter-spacing:-.02em}
.mall-hero .lead{max-width:560px;margin:0 auto;font-size:18px;font-weight:400;line-height:1.5}
.mall-main{margin-top:-56px}
.mall-panel{overflow:hidden;margin:0;border:0;border-radius:20px;box-shadow:0 12px 32px rgba(30,27,46,.18)}
.mall-aside{padding:20px 24px;color:#fff;background-color:#1e1b2e;background-image:radial-gradient(circle at 100% 100%,rgba(249,168,212,.18) 0 90px,transparent 91px)}
.mall-aside h2{margin:8px 0 4px;font-size:13px;font-weight:700;letter-spacing:.14em;color:#f9a8d4}
.mall-tag{color:#f9a8d4}
.mall-promo{margin:0;font-size:19px;font-weight:700;line-height:1.35}
.mall-form{padding:24px}
.mall-form h2{margin:0 0 6px;font-size:26px;font-weight:800;color:#1e1b2e}
.mall-form .text-muted{margin:0 0 4px;color:#5b5670}
.mlango-connect .mlango-form{max-width:none;margin:0;padding:0;color:inherit;font:inherit;text-align:left;background:none;border-radius:0;box-shadow:none}
.mlango-connect .mlango-form>h2,.mlango-connect .mlango-form>.venue{display:none}
.mlango-connect label{display:block;margin:14px 0 5px;font-size:15px;font-weight:600;color:#2e2a40}
.mlango-connect input[type=text],.mlango-connect input[type=email],.mlango-connect input[type=tel]{display:block;width:100%;height:auto;padding:11px 13px;font:inherit;color:#1e1b2e;background:#fff;border:2px solid #c4c0d4;border-radius:12px}
.mlango-connect input:focus,.mlango-connect button:focus,.mlango-connect a:focus{outline:3px solid var(--primary);outline-offset:2px}
.mlango-connect .check{display:flex;align-items:flex-start;font-weight:400;color:#4a4560}
.mlango-connect .check input{flex-shrink:0;margin:3px 10px 0 0;width:18px;height:18px;accent-color:var(--primary)}
.mlango-connect button,.mlango-connect .btn{display:block;width:100%;margin-top:20px;padding:13px 16px;font:inherit;font-weight:700;text-align:center;text-decoration:none;white-space:normal;color:#fff;background:var(--primary);border:0;border-radius:999px;box-shadow:none;cursor:pointer}
.mlango-connect button:hover,.mlango-connect button:focus{color:#fff}
.mlango-connect .btn.alt,.mlango-connect .btn.alt:hover,.mlango-connect .btn.alt:focus{color:#1e1b2e;background:#fff;border:2px solid #c4c0d4}
.mlango-connect .or{margin:16px 0 0;text-align:center;font-size:14px;color:#5b5670}
.mlango-connect small{font-size:14px;color:#5b5670}
.mlango-connect a{color:var(--primary);text-decoration:underline}
.mlango-connect .alert{margin-bottom:12px;padding:12px;color:#991b1b;background:#fef2f2;border:1px solid #fecaca;border-radius:12px}
.mlango-connect .alert.ok{color:#166534;background:#f0fdf4;border-color:#bbf7d0}
.mlango-connect .alert p{margin:3px 0}
.mlango-connect .err{margin:5px 0 0;font-size:14px;color:#b91c1c}
@media (min-width:768px){.mall-hero{padding:40px 0 96px}.mall-hero h1{font-size:48px}.mall-hero .lead{font-size:20px}.mall-panel{display:flex}.mall-aside{flex:0 0 38%;padding:40px 32px;background-image:radial-gradient(circle at 100% 100%,rgba(249,168,212,.18) 0 160px,transparent 161px)}.mall-promo{font-size:26px}.mall-form{flex:1;padding:36px 40px}}`;

export const template: SplashTemplate = {
  id: "mall",
  name: "Shopping mall",
  description: "A bright page for malls and busy venues, with today's offer beside the connect form.",
  cssTemplate: "bootstrap3.css",
  html,
  css,
  scripts: "",
  configs: [
    { name: "venue_name", title: "Venue name", defaultValue: "Jamii Mall" },
    {
      name: "welcome_text",
      title: "Welcome message",
      defaultValue: "Free Wi-Fi on every floor. Connect in seconds and enjoy your visit.",
    },
    { name: "logo_url", title: "Logo image (URL or data: URI)", defaultValue: LOGO },
    { name: "primary_color", title: "Brand colour (dark enough for white text)", defaultValue: "#6d28d9" },
    { name: "background_color", title: "Page background colour (light)", defaultValue: "#f5f3ff" },
    { name: "promo_text", title: "Today's offer", defaultValue: "This weekend: up to 50% off at selected fashion stores, level 2." },
  ],
};
