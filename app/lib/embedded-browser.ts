// Whether a guest's browser is an embedded webview, where Google refuses OAuth with
// `disallowed_useragent` ("Use secure browsers" policy, developers.googleblog.com 2016-08 and
// developers.google.com/identity/protocols/oauth2/policies#browsers). Captive-portal sheets are such
// webviews: iOS's Captive Network Assistant (WKWebView: "Mobile/…" without "Safari/", or the
// "CaptiveNetworkSupport" probe agent) and Android's CaptivePortalLogin (Android System WebView:
// "; wv)" in the platform part). In-app browsers (Facebook, Instagram) are webviews too.
import type { OAuthProviderName } from "~/db/schema";

/** Providers whose sign-in refuses embedded webviews. */
export const WEBVIEW_REFUSING_PROVIDERS: readonly OAuthProviderName[] = ["google"];

export function isEmbeddedWebview(userAgent: string | null | undefined): boolean {
  if (!userAgent) return false;
  const ua = userAgent.slice(0, 512);
  if (/CaptiveNetworkSupport|wispr/i.test(ua)) return true;
  // Android System WebView marks itself "; wv)" (developer.chrome.com/docs/multidevice/user-agent#webview_user_agent).
  if (/Android/.test(ua) && /;\s*wv\)/.test(ua)) return true;
  // Facebook's and Instagram's in-app browsers.
  if (/FBAN|FBAV|FB_IAB|Instagram/.test(ua)) return true;
  // iOS: Safari and the other browsers say "Safari/…" (or CriOS, FxiOS, EdgiOS); a bare WKWebView does not.
  if (/\b(iPhone|iPad|iPod)\b/.test(ua) && /AppleWebKit/.test(ua) && !/Safari\/|CriOS|FxiOS|EdgiOS/.test(ua)) return true;
  return false;
}

/** The providers to leave out for this browser. */
export function providersRefusing(userAgent: string | null | undefined, providers: readonly OAuthProviderName[]): OAuthProviderName[] {
  return isEmbeddedWebview(userAgent) ? providers.filter((p) => WEBVIEW_REFUSING_PROVIDERS.includes(p)) : [];
}
