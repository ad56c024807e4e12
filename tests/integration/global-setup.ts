import type { TestProject } from "vitest/node";
import { ensureBuild, startAppServer } from "@/scripts/lib/app-server";
import { createTestDatabase } from "../support/test-database";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  ensureBuild((line) => console.log(line));
  const database = await createTestDatabase("it");
  const app = await startAppServer({ databaseUrl: database.url });
  project.provide("databaseUrl", database.url);
  project.provide("baseUrl", app.baseUrl);
  return async () => {
    await app.stop();
    await database.drop();
  };
}
