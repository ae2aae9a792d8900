// Writes schema.graphql, the data API's schema as SDL (npm run graphql:schema). The schema lives in
// code (app/services/graphql/); tests/integration/graphql-schema.test.ts fails when this file differs.
import fs from "node:fs";
import { printedSchema } from "~/services/graphql/schema.server";

fs.writeFileSync("schema.graphql", printedSchema());
console.log("schema.graphql written.");
