import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { GroupCustomers } from "./__group-customers";
import { groupCustomersLoader } from "./__group-customers.server";

// groups/{id}/customers: the spec's name of the default section.
export const loader = groupCustomersLoader;
export default GroupCustomers;
export const ErrorBoundary = GeneralErrorBoundary;
