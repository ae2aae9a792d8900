import { visitorExportLoader } from "./__visitor-export.server";

export const loader = visitorExportLoader("unique_visitors");
