import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { GroupCustomers } from "./__group-customers";
import { groupCustomersLoader } from "./__group-customers.server";

// groups/{id}: the Customers section, the group's default.
export const loader = groupCustomersLoader;
export default GroupCustomers;
export const ErrorBoundary = GeneralErrorBoundary;
