/** The built-in guest pages' one style sheet, inline: a guest's page asks no other file. */
export const GUEST_STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;background:#f1f5f9}
main{max-width:26rem;margin:0 auto;padding:1.25rem 1rem 2rem}.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.35rem;margin:.25rem 0 1rem}.venue{color:#475569;font-size:.9rem;margin:0}label{display:block;font-weight:600;font-size:.9rem;margin:.75rem 0 .25rem}
input[type=text],input[type=email],input[type=tel]{width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #94a3b8;border-radius:.5rem}
.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400;margin-top:.9rem}.check input{margin-top:.3rem}
button,.btn{display:block;width:100%;margin-top:1rem;padding:.75rem;font:inherit;font-weight:600;text-align:center;text-decoration:none;border:0;border-radius:.5rem;background:#4f46e5;color:#fff}
.btn.alt,button.alt{background:#fff;color:#1e293b;border:1px solid #94a3b8}.err{color:#b91c1c;font-size:.85rem;margin:.25rem 0 0}.alert{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;padding:.75rem;border-radius:.5rem;margin-bottom:.75rem}
.alert p{margin:.2rem 0}.ok{background:#f0fdf4;border-color:#bbf7d0;color:#166534}.or{text-align:center;color:#64748b;font-size:.85rem;margin:1rem 0 0}small{color:#64748b}a{color:#4338ca}.plan{background:#eef2ff;border-radius:.5rem;padding:.5rem .75rem;margin:0 0 .75rem;font-size:.9rem}`;
