import { visitorExportLoader } from "./__visitor-export.server";

export const loader = visitorExportLoader("all_visitors");
