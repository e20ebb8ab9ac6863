// Generated from the Prodshot API's OpenAPI document by `npm run generate --workspace @prodshot/client`
// (apps/api/src/client-schema). Do not edit: a test fails when this file and the document differ.
export interface paths {
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: "ok" | "degraded";
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: "ok" | "degraded";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/client-config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            auth: {
                                /** @enum {string} */
                                mode: "clerk";
                                publishableKey: string;
                                jwtTemplate?: string;
                            } | {
                                /** @enum {string} */
                                mode: "embedded";
                            };
                        };
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/files/{*}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    expires?: string;
                    signature?: string;
                };
                header?: never;
                path: {
                    "*": string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The stored image */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/*": Blob;
                    };
                };
                /** @description The copy the browser holds (same ETag) is still this file */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/uploads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    fallback?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The image (its thumbnail where it has one) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/*": Blob;
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dev/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            userId: string;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        name: string;
                        clerkId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            /** @enum {boolean} */
                            valid: true;
                            userId: string;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/verify-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            valid: boolean;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            email: string;
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            email: string;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/users/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            subscriptionCredits: number;
                            addOnCredits: number;
                            cancelledSecondSubscription?: {
                                plan: "none" | "starter" | "growth" | "pro";
                                cancelledAt: string;
                                refunded: boolean;
                            } | null;
                            subscription: {
                                plan: "none" | "starter" | "growth" | "pro";
                                status: "none" | "active" | "canceled" | "past_due" | "unpaid" | "incomplete" | "incomplete_expired" | "trialing" | "paused";
                                startDate: string | null;
                                endDate: string | null;
                                pendingPlan: ("none" | "starter" | "growth" | "pro") | null;
                                cancelAtPeriodEnd: boolean;
                            };
                            currentPlan: "none" | "starter" | "growth" | "pro";
                            isActive: boolean;
                            effectivePlan: "none" | "starter" | "growth" | "pro";
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                name: string;
                                scopes: ("generate" | "read")[];
                                prefix: string;
                                /** Format: date-time */
                                createdAt: string;
                                lastUsedAt: string | null;
                                lastUsedAddress: string | null;
                            }[];
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        scopes: ("generate" | "read")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            scopes: ("generate" | "read")[];
                            prefix: string;
                            /** Format: date-time */
                            createdAt: string;
                            lastUsedAt: string | null;
                            lastUsedAddress: string | null;
                            key: string;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                /** @enum {boolean} */
                                revoked: true;
                            };
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload a product photo (multipart/form-data: the file in "image", an optional "name") */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Any unique string (a UUID): the same key from the same seller within 24 hours answers with the first call's result and charges nothing more; with another request, 422. */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The product photo, at most 10 MB.
                         */
                        image: Blob;
                        /** @description What to call it; the file name otherwise. */
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            _id: string;
                            fileId: string;
                            name: string;
                            productTitle: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            originalImage: {
                                url: string;
                                thumbnailUrl: string;
                                previewUrl: string;
                            };
                            coach: {
                                /** @enum {string} */
                                code: "blurry" | "low_resolution" | "too_dark" | "too_bright" | "product_too_small" | "product_cut_off" | "busy_background" | "no_product";
                                message: string;
                                advice: string;
                            }[];
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The upload or a field is too large. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The request is not in a media type this call reads. */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The wait ran out; the work goes on (see `generationId`). */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                _id: string;
                                fileId: string;
                                name: string;
                                productTitle: string | null;
                                /** Format: date-time */
                                createdAt: string;
                                originalImage: {
                                    url: string;
                                    thumbnailUrl: string;
                                    previewUrl: string;
                                };
                                coach: {
                                    /** @enum {string} */
                                    code: "blurry" | "low_resolution" | "too_dark" | "too_bright" | "product_too_small" | "product_cut_off" | "busy_background" | "no_product";
                                    message: string;
                                    advice: string;
                                }[];
                            }[];
                            nextCursor: string | null;
                            total: number;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/{id}/subject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                imageId: string;
                                status: "pending" | "ready" | "failed";
                                needsFocus: boolean;
                                confidence: number | null;
                                candidates: {
                                    box: {
                                        x: number;
                                        y: number;
                                        width: number;
                                        height: number;
                                    };
                                    point: {
                                        x: number;
                                        y: number;
                                    };
                                    score: number;
                                }[];
                                error: string | null;
                                tapMayFind?: boolean;
                                coach?: {
                                    /** @enum {string} */
                                    code: "blurry" | "low_resolution" | "too_dark" | "too_bright" | "product_too_small" | "product_cut_off" | "busy_background" | "no_product";
                                    message: string;
                                    advice: string;
                                }[];
                                outline?: {
                                    url: string | null;
                                    unsure: boolean;
                                    reasons: ("touches_frame" | "several_parts" | "large_share" | "low_score" | "several_objects")[];
                                    confirmed: boolean;
                                    focus: {
                                        x: number;
                                        y: number;
                                        keep: boolean;
                                    }[] | null;
                                    needsConfirmation: boolean;
                                } | null;
                                product?: {
                                    kind: string;
                                    supported: boolean;
                                } | null;
                            };
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The credits do not cover this call: `needed`, `available` and where to buy more. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InsufficientCreditsError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/{id}/outline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        focus?: {
                            x: number;
                            y: number;
                            keep?: unknown;
                        } | {
                            x: number;
                            y: number;
                            keep: boolean;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                imageId: string;
                                status: "pending" | "ready" | "failed";
                                needsFocus: boolean;
                                confidence: number | null;
                                candidates: {
                                    box: {
                                        x: number;
                                        y: number;
                                        width: number;
                                        height: number;
                                    };
                                    point: {
                                        x: number;
                                        y: number;
                                    };
                                    score: number;
                                }[];
                                error: string | null;
                                tapMayFind?: boolean;
                                coach?: {
                                    /** @enum {string} */
                                    code: "blurry" | "low_resolution" | "too_dark" | "too_bright" | "product_too_small" | "product_cut_off" | "busy_background" | "no_product";
                                    message: string;
                                    advice: string;
                                }[];
                                outline?: {
                                    url: string | null;
                                    unsure: boolean;
                                    reasons: ("touches_frame" | "several_parts" | "large_share" | "low_score" | "several_objects")[];
                                    confirmed: boolean;
                                    focus: {
                                        x: number;
                                        y: number;
                                        keep: boolean;
                                    }[] | null;
                                    needsConfirmation: boolean;
                                } | null;
                                product?: {
                                    kind: string;
                                    supported: boolean;
                                } | null;
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The wait ran out; the work goes on (see `generationId`). */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/{id}/outline/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                imageId: string;
                                status: "pending" | "ready" | "failed";
                                needsFocus: boolean;
                                confidence: number | null;
                                candidates: {
                                    box: {
                                        x: number;
                                        y: number;
                                        width: number;
                                        height: number;
                                    };
                                    point: {
                                        x: number;
                                        y: number;
                                    };
                                    score: number;
                                }[];
                                error: string | null;
                                tapMayFind?: boolean;
                                coach?: {
                                    /** @enum {string} */
                                    code: "blurry" | "low_resolution" | "too_dark" | "too_bright" | "product_too_small" | "product_cut_off" | "busy_background" | "no_product";
                                    message: string;
                                    advice: string;
                                }[];
                                outline?: {
                                    url: string | null;
                                    unsure: boolean;
                                    reasons: ("touches_frame" | "several_parts" | "large_share" | "low_score" | "several_objects")[];
                                    confirmed: boolean;
                                    focus: {
                                        x: number;
                                        y: number;
                                        keep: boolean;
                                    }[] | null;
                                    needsConfirmation: boolean;
                                } | null;
                                product?: {
                                    kind: string;
                                    supported: boolean;
                                } | null;
                            };
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                _id: string;
                                fileId: string;
                                name: string;
                                productTitle: string | null;
                                /** Format: date-time */
                                createdAt: string;
                                originalImage: {
                                    url: string;
                                    thumbnailUrl: string;
                                    previewUrl: string;
                                };
                                coach: {
                                    /** @enum {string} */
                                    code: "blurry" | "low_resolution" | "too_dark" | "too_bright" | "product_too_small" | "product_cut_off" | "busy_background" | "no_product";
                                    message: string;
                                    advice: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                /** @enum {boolean} */
                                deleted: true;
                            };
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/{id}/title": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        productTitle: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                _id: string;
                                fileId: string;
                                name: string;
                                productTitle: string | null;
                                /** Format: date-time */
                                createdAt: string;
                                originalImage: {
                                    url: string;
                                    thumbnailUrl: string;
                                    previewUrl: string;
                                };
                                coach: {
                                    /** @enum {string} */
                                    code: "blurry" | "low_resolution" | "too_dark" | "too_bright" | "product_too_small" | "product_cut_off" | "busy_background" | "no_product";
                                    message: string;
                                    advice: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/recent/generations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                imageUrl: string;
                                /** Format: date-time */
                                createdAt: string;
                                thumbnailUrl: string;
                                previewUrl: string;
                                generationId: string;
                                index: number;
                                name: string;
                                files: {
                                    download: {
                                        contentType: "image/jpeg" | "image/png" | "image/webp";
                                        bytes: number | null;
                                    };
                                    original: {
                                        contentType: "image/jpeg" | "image/png" | "image/webp";
                                        bytes: number | null;
                                    } | null;
                                };
                            }[];
                            nextCursor: string | null;
                            total: number;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/generate-product-shots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Any unique string (a UUID): the same key from the same seller within 24 hours answers with the first call's result and charges nothing more; with another request, 422. */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        imageUrl?: string;
                        imageId?: string;
                        fileId?: string;
                        productTitle?: string;
                        productDescription?: string;
                        focus?: {
                            x: number;
                            y: number;
                            keep?: unknown;
                        } | {
                            x: number;
                            y: number;
                            keep: boolean;
                        }[];
                        /** @enum {string} */
                        backgroundType?: "studio" | "lifestyle" | "lightwood" | "marble" | "darkwood" | "silk" | "industrial" | "scrapebook" | "pastel-gradient" | "auto";
                        prompt?: string;
                        /** @default 1 */
                        count?: number;
                        extractSubjectFirst?: boolean;
                        upscaleImageFirst?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                processedImages: {
                                    thumbnailUrl: string;
                                    previewUrl: string;
                                    url: string;
                                    settings: {
                                        backgroundType: string;
                                    };
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                /** @enum {string} */
                                status: "queued";
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The credits do not cover this call: `needed`, `available` and where to buy more. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InsufficientCreditsError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The wait ran out; the work goes on (see `generationId`). */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GenerationTimeoutError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/smart-generate-product-shots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Any unique string (a UUID): the same key from the same seller within 24 hours answers with the first call's result and charges nothing more; with another request, 422. */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        imageUrl?: string;
                        imageId?: string;
                        fileId?: string;
                        productTitle?: string;
                        productDescription?: string;
                        focus?: {
                            x: number;
                            y: number;
                            keep?: unknown;
                        } | {
                            x: number;
                            y: number;
                            keep: boolean;
                        }[];
                        /** @default 4 */
                        styleCount?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                /** @enum {string} */
                                status: "queued";
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The credits do not cover this call: `needed`, `available` and where to buy more. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InsufficientCreditsError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The wait ran out; the work goes on (see `generationId`). */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GenerationTimeoutError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/generate-product-style-recommendations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        imageUrl?: string;
                        imageId?: string;
                        fileId?: string;
                        productTitle?: string;
                        productDescription?: string;
                        focus?: {
                            x: number;
                            y: number;
                            keep?: unknown;
                        } | {
                            x: number;
                            y: number;
                            keep: boolean;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                productInfo: {
                                    productTitle: string;
                                    productDescription: string;
                                    productType: string;
                                };
                                styles: {
                                    name: string;
                                    prompt: string;
                                }[];
                                unsupportedProduct?: boolean;
                                message?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                /** @enum {string} */
                                status: "queued";
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The credits do not cover this call: `needed`, `available` and where to buy more. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InsufficientCreditsError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The wait ran out; the work goes on (see `generationId`). */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/generate-single-product-shot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Any unique string (a UUID): the same key from the same seller within 24 hours answers with the first call's result and charges nothing more; with another request, 422. */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        imageUrl?: string;
                        imageId?: string;
                        fileId?: string;
                        productTitle?: string;
                        productDescription?: string;
                        focus?: {
                            x: number;
                            y: number;
                            keep?: unknown;
                        } | {
                            x: number;
                            y: number;
                            keep: boolean;
                        }[];
                        generationId: string;
                        stylePrompt: string;
                        styleName: string;
                        styleIndex: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                processedImage: {
                                    thumbnailUrl: string;
                                    previewUrl: string;
                                    url: string;
                                    settings: {
                                        backgroundType: string;
                                    };
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                /** @enum {string} */
                                status: "queued";
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The credits do not cover this call: `needed`, `available` and where to buy more. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InsufficientCreditsError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The wait ran out; the work goes on (see `generationId`). */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GenerationTimeoutError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/enhance-prompt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        prompt: string;
                        imageUrl?: string;
                        productTitle?: string;
                        productDescription?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                enhancedPrompt: string;
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PlanFeatureForbiddenError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/{id}/remove-background": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Any unique string (a UUID): the same key from the same seller within 24 hours answers with the first call's result and charges nothing more; with another request, 422. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        settings?: {
                            [key: string]: unknown;
                        };
                        focus?: {
                            x: number;
                            y: number;
                            keep?: unknown;
                        } | {
                            x: number;
                            y: number;
                            keep: boolean;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                processedImage: {
                                    thumbnailUrl: string;
                                    previewUrl: string;
                                    url: string;
                                    settings: {
                                        backgroundType: string;
                                    };
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                /** @enum {string} */
                                status: "queued";
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The credits do not cover this call: `needed`, `available` and where to buy more. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InsufficientCreditsError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The wait ran out; the work goes on (see `generationId`). */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GenerationTimeoutError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/images/{id}/generate-background": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Any unique string (a UUID): the same key from the same seller within 24 hours answers with the first call's result and charges nothing more; with another request, 422. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        backgroundType?: "studio" | "lifestyle" | "lightwood" | "marble" | "darkwood" | "silk" | "industrial" | "scrapebook" | "pastel-gradient";
                        prompt?: string;
                        focus?: {
                            x: number;
                            y: number;
                            keep?: unknown;
                        } | {
                            x: number;
                            y: number;
                            keep: boolean;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                processedImage: {
                                    thumbnailUrl: string;
                                    previewUrl: string;
                                    url: string;
                                    settings: {
                                        backgroundType: string;
                                    };
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                /** @enum {string} */
                                status: "queued";
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The credits do not cover this call: `needed`, `available` and where to buy more. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InsufficientCreditsError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The wait ran out; the work goes on (see `generationId`). */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GenerationTimeoutError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                kind: "manual" | "auto" | "smart" | "remove-background" | "generate-background";
                                status: "queued" | "running" | "complete" | "failed";
                                stage: ("analysing" | "designing recommendations" | "generating") | null;
                                imageId: string | null;
                                productInfo: {
                                    productTitle: string;
                                    productDescription: string;
                                    productType: string;
                                } | null;
                                error: string | null;
                                unsupportedProduct: boolean;
                                styles: {
                                    index: number;
                                    name: string;
                                    prompt: string | null;
                                    status: "queued" | "running" | "complete" | "failed";
                                    progress: number;
                                    url: string | null;
                                    thumbnailUrl: string | null;
                                    previewUrl: string | null;
                                    error: string | null;
                                    backgroundType?: string | null;
                                    seed?: number | null;
                                    files?: {
                                        download: {
                                            contentType: "image/jpeg" | "image/png" | "image/webp";
                                            bytes: number | null;
                                        };
                                        original: {
                                            contentType: "image/jpeg" | "image/png" | "image/webp";
                                            bytes: number | null;
                                        } | null;
                                    } | null;
                                }[];
                                /** Format: date-time */
                                createdAt: string;
                                origin?: {
                                    generationId: string;
                                    index: number;
                                } | null;
                            };
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generations/{id}/styles/{index}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    file?: "original";
                };
                header?: never;
                path: {
                    id: string;
                    index: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The stored image, sent as an attachment (Content-Disposition) or inline */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/*": Blob;
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generations/{id}/outputs/{index}/more-like-this": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Any unique string (a UUID): the same key from the same seller within 24 hours answers with the first call's result and charges nothing more; with another request, 422. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    id: string;
                    index: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                /** @enum {string} */
                                status: "queued";
                                from: {
                                    generationId: string;
                                    index: number;
                                };
                                seed: number;
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The credits do not cover this call: `needed`, `available` and where to buy more. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InsufficientCreditsError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generations/{id}/styles/{index}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Any unique string (a UUID): the same key from the same seller within 24 hours answers with the first call's result and charges nothing more; with another request, 422. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    id: string;
                    index: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                index: number;
                                attempt: number;
                                /** @enum {string} */
                                status: "queued";
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The credits do not cover this call: `needed`, `available` and where to buy more. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InsufficientCreditsError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generations/{id}/compliance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Compliance report of an output (or of its export) for a marketplace preset */
        get: {
            parameters: {
                query: {
                    preset: "amazon" | "etsy" | "shopify" | "instagram-post" | "instagram-story" | "transparent";
                    output?: number;
                    exportFormat?: "png" | "jpeg" | "webp";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                generationId: string;
                                outputIndex: number;
                                /** @enum {string} */
                                preset: "amazon" | "etsy" | "shopify" | "instagram-post" | "instagram-story" | "transparent";
                                subject: {
                                    /** @enum {string} */
                                    kind: "output";
                                } | {
                                    /** @enum {string} */
                                    kind: "export";
                                    /** @enum {string} */
                                    preset: "amazon" | "etsy" | "shopify" | "instagram-post" | "instagram-story" | "transparent";
                                    /** @enum {string} */
                                    format: "png" | "jpeg" | "webp";
                                };
                                width: number;
                                height: number;
                                passed: boolean;
                                lines: {
                                    /** @enum {string} */
                                    id: "background" | "fill" | "size" | "aspect" | "not-cut" | "no-overlay" | "no-tinted-band";
                                    label: string;
                                    status: "pass" | "fail" | "unmeasured";
                                    measured: string;
                                    target: string;
                                    fix: {
                                        /** @enum {string} */
                                        preset: "amazon" | "etsy" | "shopify" | "instagram-post" | "instagram-story" | "transparent";
                                        label: string;
                                    } | null;
                                }[];
                                note: string | null;
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExportFormatError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Any unique string (a UUID): the same key from the same seller within 24 hours answers with the first call's result and charges nothing more; with another request, 422. */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        items: {
                            imageId: string;
                            productTitle?: string;
                        }[];
                        choice: {
                            /** @enum {string} */
                            mode: "smart";
                            styleCount: number;
                        } | {
                            /** @enum {string} */
                            mode: "template";
                            /** @enum {string} */
                            backgroundType: "studio" | "lifestyle" | "lightwood" | "marble" | "darkwood" | "silk" | "industrial" | "scrapebook" | "pastel-gradient" | "auto";
                            count: number;
                        } | {
                            /** @enum {string} */
                            mode: "prompt";
                            prompt: string;
                            count: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                batchId: string;
                                credits: number;
                                /** @enum {string} */
                                status: "queued";
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The credits do not cover this call: `needed`, `available` and where to buy more. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InsufficientCreditsError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Understood but refused: e.g. an Idempotency-Key reused with another request, or a photo Prodshot cannot shoot. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UnsupportedProductError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                choice: {
                                    /** @enum {string} */
                                    mode: "smart";
                                    styleCount: number;
                                } | {
                                    /** @enum {string} */
                                    mode: "template";
                                    /** @enum {string} */
                                    backgroundType: "studio" | "lifestyle" | "lightwood" | "marble" | "darkwood" | "silk" | "industrial" | "scrapebook" | "pastel-gradient" | "auto";
                                    count: number;
                                } | {
                                    /** @enum {string} */
                                    mode: "prompt";
                                    prompt: string;
                                    count: number;
                                };
                                credits: number;
                                status: "queued" | "running" | "complete" | "failed";
                                /** Format: date-time */
                                createdAt: string;
                                items: {
                                    position: number;
                                    generationId: string;
                                    imageId: string | null;
                                    thumbnailUrl: string | null;
                                    productTitle: string;
                                    status: "queued" | "running" | "complete" | "failed";
                                    stage: string | null;
                                    error: string | null;
                                    outputs: {
                                        index: number;
                                        name: string;
                                        status: "queued" | "running" | "complete" | "failed";
                                        progress: number;
                                        url: string | null;
                                        thumbnailUrl: string | null;
                                        previewUrl: string | null;
                                        error: string | null;
                                    }[];
                                }[];
                                archiveUrl: string | null;
                                archiveBytes: number | null;
                                originalArchiveBytes: number | null;
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    expires?: string;
                    signature?: string;
                    file?: "original";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A zip of every finished output as Download saves it (JPEG), or the originals with file=original; entries named {product}-{style}-{n}.{ext} */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/zip": Blob;
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Export an output for a marketplace preset (no credit is charged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        generationId: string;
                        outputIndex: number;
                        /** @enum {string} */
                        preset: "amazon" | "etsy" | "shopify" | "instagram-post" | "instagram-story" | "transparent";
                        /** @enum {string} */
                        format: "png" | "jpeg" | "webp";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                url: string;
                                downloadPath: string;
                                fileName: string;
                                contentType: string;
                                width: number;
                                height: number;
                                /** @enum {string} */
                                preset: "amazon" | "etsy" | "shopify" | "instagram-post" | "instagram-story" | "transparent";
                                /** @enum {string} */
                                format: "png" | "jpeg" | "webp";
                            };
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExportFormatError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An export already made, sent through the API and named for saving */
        get: {
            parameters: {
                query: {
                    generationId: string;
                    outputIndex: number;
                    preset: "amazon" | "etsy" | "shopify" | "instagram-post" | "instagram-story" | "transparent";
                    format: "png" | "jpeg" | "webp";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The stored image, sent as an attachment (Content-Disposition) or inline */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/*": Blob;
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExportFormatError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description The image model failed; nothing was charged. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/payments/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: "starter" | "growth" | "pro";
                                name: string;
                                label: string;
                                priceCents: number;
                                monthlyCredits: number;
                                badge: string | null;
                                /** @enum {string} */
                                interval: "month";
                                quality: {
                                    name: "HD" | "Ultra HD";
                                    /** @description Long side of every shot, in pixels */
                                    size: number;
                                };
                                features: {
                                    promptEnhancement: boolean;
                                    priorityProcessing: boolean;
                                };
                                historyDays: number | null;
                            }[];
                        };
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/payments/addon-plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: "addon-100" | "addon-500" | "addon-1000";
                                name: string;
                                credits: number;
                                priceCents: number;
                            }[];
                        };
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/payments/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        planKey: string;
                        /** @description CustomerData */
                        customerData?: Record<string, never>;
                        return_url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            payment_link: string | null;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not possible in the current state (e.g. the work has not finished yet). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/payments/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        planKey: string;
                        /** @description CustomerData */
                        customerData?: Record<string, never>;
                        return_url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            payment_link: string | null;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/payments/portal-session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                url: string;
                            };
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/payments/cancel-subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                message: string;
                                subscription: {
                                    plan: "none" | "starter" | "growth" | "pro";
                                    status: "none" | "active" | "canceled" | "past_due" | "unpaid" | "incomplete" | "incomplete_expired" | "trialing" | "paused";
                                    startDate: string | null;
                                    endDate: string | null;
                                    pendingPlan: ("none" | "starter" | "growth" | "pro") | null;
                                    cancelAtPeriodEnd: boolean;
                                };
                            };
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                url: string;
                                events: ("generation.completed" | "generation.failed" | "batch.completed" | "credits.low")[];
                                creditsLowThreshold: number | null;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        url: string;
                        events: ("generation.completed" | "generation.failed" | "batch.completed" | "credits.low")[];
                        creditsLowThreshold?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            url: string;
                            events: ("generation.completed" | "generation.failed" | "batch.completed" | "credits.low")[];
                            creditsLowThreshold: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            secret: string;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                /** @enum {boolean} */
                                deleted: true;
                            };
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                eventId: string;
                                /** @enum {string} */
                                eventType: "generation.completed" | "generation.failed" | "batch.completed" | "credits.low";
                                /** @enum {string} */
                                status: "pending" | "delivered" | "failed";
                                attempts: number;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                lastAttemptAt: string | null;
                                nextAttemptAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    deliveryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                eventId: string;
                                /** @enum {string} */
                                eventType: "generation.completed" | "generation.failed" | "batch.completed" | "credits.low";
                                /** @enum {string} */
                                status: "pending" | "delivered" | "failed";
                                attempts: number;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                lastAttemptAt: string | null;
                                nextAttemptAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
                /** @description No valid session token or API key, or a revoked key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not allowed: an API key without the scope this call needs, an API key on a session-only call, or a plan without this feature. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Not found, or not yours. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description A rate limit is spent. `Retry-After` says when to try again; `RateLimit` and `RateLimit-Policy` say which limit. */
                429: {
                    headers: {
                        /** @description Seconds until the limit frees up. */
                        "Retry-After"?: number;
                        /** @description What is left of each limit this call counts against, e.g. `"generation";r=0;t=42` (IETF draft-ietf-httpapi-ratelimit-headers). */
                        RateLimit?: string;
                        /** @description The limits this call counts against, e.g. `"generation";q=10;w=60`. */
                        "RateLimit-Policy"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/stripe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            received: true;
                            duplicate: boolean;
                        };
                    };
                };
                /** @description Bad request: the parameters or body do not fit the schema, or ask for something this call cannot do. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
                /** @description Briefly unavailable (busy, or a dependency is down): try again after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ApiError: {
            statusCode: number;
            error: string;
            message: string;
            code?: string;
        };
        InsufficientCreditsError: {
            /** @enum {number} */
            statusCode: 402;
            error: string;
            message: string;
            /** @enum {string} */
            code: "insufficient_credits";
            needed: number;
            available: number;
            shortfall: number;
            /** @enum {string} */
            buyCreditsUrl: "/checkout/addon";
        };
        GenerationTimeoutError: {
            statusCode: number;
            error: string;
            message: string;
            code?: string;
            generationId?: string;
        };
        ExportFormatError: {
            statusCode: number;
            error: string;
            message: string;
            code?: string;
            formats?: string[];
        };
        UnsupportedProductError: {
            statusCode: number;
            error: string;
            message: string;
            code?: string;
            imageIds?: string[];
            supportedList?: string[];
        };
        PlanFeatureForbiddenError: {
            statusCode: number;
            error: string;
            message: string;
            code?: string;
            feature?: "promptEnhancement" | "priorityProcessing";
            /** @enum {string} */
            upgradeUrl?: "/pricing";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
