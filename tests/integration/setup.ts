import { inject } from "vitest";

// lib/ modules read DATABASE_URL once; point them at this run's throwaway database.
process.env.DATABASE_URL = inject("databaseUrl");
