import { handleAuthRequest } from "@/lib/auth/handler";

export const dynamic = "force-dynamic";

export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
