import type { Migration } from "kysely";
import * as core from "./2026-11-22-0001-core";
import * as venues from "./2026-11-22-0002-venues";
import * as records from "./2026-11-22-0003-records";
import * as analytics from "./2026-11-22-0004-analytics";
import * as reports from "./2026-11-22-0006-reports";
import * as layout from "./2026-11-22-0007-layout";
import * as jobs from "./2026-11-24-0008-jobs";
import * as tokenExpiry from "./2026-11-24-0009-token-expiry";
import * as emailVerification from "./2026-11-24-0010-email-verification";
import * as portal from "./2026-11-25-0011-portal";
import * as triggerOrder from "./2026-11-25-0012-trigger-order";
import * as splash from "./2026-11-25-0013-splash";
import * as plans from "./2026-11-25-0014-plans";
import * as subscriptions from "./2026-11-25-0015-subscriptions";
import * as subscriptionPlanNames from "./2026-11-25-0016-subscriptions-plan-names";
import * as vouchers from "./2026-11-25-0017-vouchers";
import * as mpesaSettings from "./2026-11-25-0018-mpesa-settings";
import * as mpesaTransactions from "./2026-11-25-0019-mpesa-transactions";
import * as marketing from "./2026-11-25-0020-marketing";
import * as groupCounts from "./2026-11-25-0021-group-counts";
import * as surveys from "./2026-11-25-0030-surveys";
import * as ads from "./2026-11-25-0031-ads";
import * as radius from "./2026-11-25-0032-radius";
import * as timeZone from "./2026-11-26-0033-time-zone";
import * as presence from "./2026-11-26-0034-presence";
import * as customerTotals from "./2026-11-26-0035-customer-totals";
import * as figuresPerStatement from "./2026-11-26-0036-figures-per-statement";
import * as deliveryPace from "./2026-11-26-0037-delivery-pace";
import * as subscriptionsByPlan from "./2026-12-02-0038-subscriptions-by-plan";
import * as demoSmsKey from "./2026-12-02-0039-demo-sms-key";
import * as gatewayNonces from "./2026-12-02-0040-gateway-nonces";
import * as gatewaySessions from "./2026-12-02-0041-gateway-sessions";
import * as paymentExceptions from "./2026-12-02-0044-payment-exceptions";
import * as guestChangesAndCallbackHash from "./2026-12-02-0046-guest-changes-and-callback-hash";
import * as networkLanguage from "./2026-12-02-0047-network-language";
import * as guestPrivacy from "./2026-12-02-0048-guest-privacy";
import * as guestCodes from "./2026-12-02-0049-guest-codes";
import * as gatewayEntryTimeline from "./2026-12-02-0050-gateway-entry-timeline";
import * as phoneProved from "./2026-12-03-0051-phone-proved";
import * as receiptClaims from "./2026-12-03-0052-receipt-claims";

// Listed by hand (not read from disk) so the migrations survive bundling by the Remix compiler.
export const migrations: Record<string, Migration> = {
  "2026-11-22-0001-core": core,
  "2026-11-22-0002-venues": venues,
  "2026-11-22-0003-records": records,
  "2026-11-22-0004-analytics": analytics,
  "2026-11-22-0006-reports": reports,
  "2026-11-22-0007-layout": layout,
  "2026-11-24-0008-jobs": jobs,
  "2026-11-24-0009-token-expiry": tokenExpiry,
  "2026-11-24-0010-email-verification": emailVerification,
  "2026-11-25-0011-portal": portal,
  "2026-11-25-0012-trigger-order": triggerOrder,
  "2026-11-25-0013-splash": splash,
  "2026-11-25-0014-plans": plans,
  "2026-11-25-0015-subscriptions": subscriptions,
  "2026-11-25-0016-subscriptions-plan-names": subscriptionPlanNames,
  "2026-11-25-0017-vouchers": vouchers,
  "2026-11-25-0018-mpesa-settings": mpesaSettings,
  "2026-11-25-0019-mpesa-transactions": mpesaTransactions,
  "2026-11-25-0020-marketing": marketing,
  "2026-11-25-0021-group-counts": groupCounts,
  "2026-11-25-0030-surveys": surveys,
  "2026-11-25-0031-ads": ads,
  "2026-11-25-0032-radius": radius,
  "2026-11-26-0033-time-zone": timeZone,
  "2026-11-26-0034-presence": presence,
  "2026-11-26-0035-customer-totals": customerTotals,
  "2026-11-26-0036-figures-per-statement": figuresPerStatement,
  "2026-11-26-0037-delivery-pace": deliveryPace,
  "2026-12-02-0038-subscriptions-by-plan": subscriptionsByPlan,
  "2026-12-02-0039-demo-sms-key": demoSmsKey,
  "2026-12-02-0040-gateway-nonces": gatewayNonces,
  "2026-12-02-0041-gateway-sessions": gatewaySessions,
  "2026-12-02-0044-payment-exceptions": paymentExceptions,
  "2026-12-02-0046-guest-changes-and-callback-hash": guestChangesAndCallbackHash,
  "2026-12-02-0047-network-language": networkLanguage,
  "2026-12-02-0048-guest-privacy": guestPrivacy,
  "2026-12-02-0049-guest-codes": guestCodes,
  "2026-12-02-0050-gateway-entry-timeline": gatewayEntryTimeline,
  "2026-12-03-0051-phone-proved": phoneProved,
  "2026-12-03-0052-receipt-claims": receiptClaims,
};
