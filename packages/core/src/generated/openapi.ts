// generated from spec/openapi.yaml by scripts/generate.ts; do not edit

export interface paths {
    "/api/team/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the team's members */
        get: operations["listTeamMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/team/members/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a user inside the team
         * @description The email domain must be on the team's verified domain whitelist. A new user is created
         *     and added to the team; users created through the API receive no signup token bonus.
         */
        post: operations["createTeamMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/team/members/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invite an already registered user into the team
         * @description The user must already have a registered account, and the email domain must be on the
         *     team's verified domain whitelist.
         */
        post: operations["inviteTeamMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/team/members/{userId}/impersonation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate an impersonation login URL for a member
         * @description The member's email domain must be on the verified domain whitelist and the member must
         *     belong to the team. The login URL is intended for use in an iframe.
         */
        post: operations["impersonateTeamMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/open-api/standard/call/service/sts-tmp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Obtain temporary object-storage credentials
         * @description No body is sent; `Content-Type` is `application/json`.
         */
        post: operations["getUploadCredential"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/open-api/standard/call/service/org-info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List the caller's team spaces
         * @description No body is sent.
         */
        post: operations["listOrgSpaces"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/open-api/standard/call/service/material-save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register uploaded objects as assets
         * @description Registers objects already uploaded with the temporary credentials as assets in the
         *     personal space (no `orgId`) or in a team space. The documentation's field table nests the
         *     fields in `param`, its sample sends them at the top level; which form the service accepts
         *     is not shown. Both are described. The SDK client sends the top-level form (what the
         *     published sample sends); the simulator accepts both.
         */
        post: operations["saveMaterials"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/service/folder-subscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Subscribe (or unsubscribe) a callback address to folder-content events
         * @description Binds `folderIds`, a callback address and an event type. `operation` DELETE cancels the
         *     subscription. The service then POSTs a folder-content callback (webhook
         *     `FOLDER_CONTENT_UPDATE`) to `callbackUrl` when a subscribed folder's content changes.
         */
        post: operations["subscribeFolders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/service/material-automation-event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the asset events currently offered
         * @description Only currently offered events are listed; `subscribed` is per calling API key. Whether
         *     the list is wrapped in the open envelope is not shown: both forms are described.
         */
        get: operations["listAssetEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/service/material-automation-subscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Subscribe (or unsubscribe) a webhook address to asset events
         * @description A subscription is identified by the calling API key, the callback address and the event
         *     type; there is no subscription id. Subscribing fails when the team has not enabled the
         *     subscription capability. `operation` DELETE cancels the matching subscriptions.
         */
        post: operations["subscribeAssetEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    FOLDER_CONTENT_UPDATE: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Folder-content callback
         * @description Sent as an HTTP POST to the `callbackUrl` of a folder subscription when the content of a
         *     subscribed folder changes. No credential or signature is shown; the folder callback has no
         *     event id (receivers derive one from a hash of the content). Receivers tolerate null fields.
         */
        post: operations["folderContentCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    MATERIAL_INBOUND_COMPLETED: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Asset intake succeeded
         * @description Emitted when asset intake actually succeeded (formal upload or confirmed pending intake).
         */
        post: operations["materialInboundCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    MATERIAL_ADDED_TO_FOLDER: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Asset added to a folder
         * @description Emitted when an asset is added to a folder (upload into a folder, in-app or open API add,
         *     move into a shared-space folder). An existing relation is not pushed again.
         */
        post: operations["materialAddedToFolderEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    MATERIAL_METADATA_UPDATED: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Asset metadata changed
         * @description Emitted when asset metadata changes (name, description, tags, owner, custom metadata).
         */
        post: operations["materialMetadataUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    MATERIAL_VERSION_CHANGED: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Asset version added, set as cover, or removed */
        post: operations["materialVersionChangedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    MATERIAL_DELETED: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Asset deleted
         * @description Emitted when assets are deleted. A single asset can produce RECYCLE (first removal, into
         *     the recycle bin) and later PERMANENT (permanent cleanup).
         */
        post: operations["materialDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * Format: int64
         * @description A 64-bit id. On the wire a JSON integer, often beyond 2^53 (2^53 = 9007199254740992), so
         *     a plain `JSON.parse` would round it. The SDK represents every id as a string of decimal
         *     digits, whatever its magnitude: responses are parsed losslessly (values at id keys
         *     become strings) and requests are serialized with every digit as a raw JSON integer.
         * @example 1951438207513255936
         * @example 42
         */
        Id: string;
        /**
         * @description An id the service's documentation types as String (decimal digits), such as a callback's `userId`.
         * @example 1673603133161799680
         */
        IdString: string;
        /**
         * @description Team-area success envelope; `data` is the operation's payload.
         * @example {
         *       "success": true,
         *       "data": []
         *     }
         */
        TeamSuccessEnvelope: {
            /** @constant */
            success: true;
            /** @description The operation's payload. */
            data: unknown;
        };
        /**
         * @description Team-area failure envelope, sent with an HTTP error status.
         * @example {
         *       "success": false,
         *       "error": "Member not found in this team"
         *     }
         */
        TeamErrorEnvelope: {
            /** @constant */
            success: false;
            /** @description Human-readable reason. */
            error: string;
        };
        /**
         * @description Result code of the open envelope. The service's documentation types it as a string where "0" means
         *     success; the live service has also been seen to send the number 0, and "200" in folder
         *     samples (docs/service/envelopes.md): all three mean success. Anything else is an error code (see
         *     `OpenErrorEnvelope`).
         * @example 0
         * @example 0
         * @example 200
         * @example MB100001
         */
        OpenCode: string | number;
        /**
         * @description Open-area envelope. `traceId` is documented for folder-subscribe only but is carried by
         *     every response of the live service.
         * @example {
         *       "code": "0",
         *       "message": "success",
         *       "result": true,
         *       "traceId": "9a8b7c6d5e4f3a2b"
         *     }
         */
        OpenEnvelope: {
            code: components["schemas"]["OpenCode"];
            /** @description Human-readable message ("success" on success). */
            message?: string;
            /** @description The operation's result. */
            result: unknown;
            /** @description Request trace id, for support requests. */
            traceId?: string;
        };
        /**
         * @description Open-area failure: `code` is not a success code. Codes seen on the live service
         *     (docs/service/envelopes.md): `MB100001` bad parameters, `MB100002` no permission, `MB100003` not found,
         *     `MB100004` unsupported, `MB100005` business failure, `MS100001` system error, `MS100003`
         *     busy (throttle and retry). Published rate limits: 5-10 requests per second per category.
         * @example {
         *       "code": "MB100002",
         *       "message": "No permission for this team space",
         *       "result": null,
         *       "traceId": "1a2b3c4d5e6f7a8b"
         *     }
         * @example {
         *       "code": "MB100003",
         *       "message": "Folder not found: 1949870453162360832",
         *       "result": null
         *     }
         */
        OpenErrorEnvelope: {
            code: components["schemas"]["OpenCode"];
            /** @description Human-readable reason. */
            message?: string;
            /** @description Usually null. */
            result?: unknown;
            /** @description Request trace id, for support requests. */
            traceId?: string;
        };
        /**
         * @description A member of the team, as listed by GET /api/team/members.
         * @example {
         *       "id": "1673603133161799680",
         *       "name": "Anna Berg",
         *       "email": "anna@acme.com",
         *       "createdAt": "2025-07-31T08:47:15.010Z"
         *     }
         */
        TeamMember: {
            /** @description User id. */
            id: components["schemas"]["Id"];
            /** @description Display name. */
            name: string;
            /**
             * Format: email
             * @description Email address.
             */
            email: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp.
             */
            createdAt: string;
        };
        /**
         * @description A member as returned by create and invite (carries `teamId`).
         * @example {
         *       "id": "1951438207513255937",
         *       "email": "ben@acme.com",
         *       "name": "ben",
         *       "teamId": "4021",
         *       "createdAt": "2025-08-01T10:00:00.000Z"
         *     }
         */
        CreatedMember: {
            /** @description User id. */
            id: components["schemas"]["Id"];
            /**
             * Format: email
             * @description Email address.
             */
            email: string;
            /** @description Display name. */
            name: string;
            /** @description Id of the team the member belongs to. */
            teamId: components["schemas"]["Id"];
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp.
             */
            createdAt: string;
        };
        /**
         * @description Body of POST /api/team/members/create.
         * @example {
         *       "email": "ben@acme.com"
         *     }
         * @example {
         *       "email": "carla@acme.com",
         *       "password": "correct-horse-battery"
         *     }
         */
        CreateMemberInput: {
            /**
             * Format: email
             * @description Email of the user to create; its domain must be on the team's verified whitelist.
             */
            email: string;
            /**
             * @description Initial password (optional). The service's documentation states no length rule; an empty password
             *     is refused as a mistake (omit the field instead). Longer rules are the service's to
             *     report.
             */
            password?: string;
        };
        /**
         * @description Body of POST /api/team/members/invite.
         * @example {
         *       "email": "dora@acme.com"
         *     }
         */
        InviteMemberInput: {
            /**
             * Format: email
             * @description Email of an already registered user; its domain must be on the team's verified whitelist.
             */
            email: string;
        };
        /**
         * @description Optional body of POST /api/team/members/{userId}/impersonation.
         * @example {}
         * @example {
         *       "expiryHours": 2,
         *       "callbackUrl": "/library/folder/1949870453162360832"
         *     }
         */
        ImpersonationRequest: {
            /**
             * @description Validity of the login URL in hours: above 0 (fractions allowed, 0.5 is half an hour)
             *     and at most 720 (30 days). The service's documentation states no maximum; a login link that lives
             *     longer than a month is a liability, so the SDK and the simulator refuse longer values.
             * @default 24
             */
            expiryHours?: number;
            /**
             * @description Redirect target after login (omit it for "/"; an empty string is refused).
             * @default /
             */
            callbackUrl?: string;
        };
        /**
         * @description Impersonation result. The login URL is meant to be embedded in an iframe.
         * @example {
         *       "loginUrl": "https://team.service.test/auth/impersonation-login?token=q1Zr8vX0pD3mYk7T&callbackUrl=%2F",
         *       "expiryHours": 24,
         *       "expiresAt": "2025-08-02T10:00:00.000Z",
         *       "callbackUrl": "/"
         *     }
         */
        Impersonation: {
            /**
             * Format: uri
             * @description URL under {base_url}/auth/impersonation-login with the query parameters `token` (an
             *     opaque token) and `callbackUrl` (URL-encoded).
             */
            loginUrl: string;
            /** @description Validity in hours. */
            expiryHours: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp.
             */
            expiresAt: string;
            /** @description Redirect target after login. */
            callbackUrl: string;
        };
        /**
         * @description Response of GET /api/team/members.
         * @example {
         *       "success": true,
         *       "data": [
         *         {
         *           "id": "1673603133161799680",
         *           "name": "Anna Berg",
         *           "email": "anna@acme.com",
         *           "createdAt": "2025-07-31T08:47:15.010Z"
         *         },
         *         {
         *           "id": "7",
         *           "name": "Owner",
         *           "email": "owner@acme.com",
         *           "createdAt": "2024-01-02T03:04:05.000Z"
         *         }
         *       ]
         *     }
         */
        TeamMemberListEnvelope: components["schemas"]["TeamSuccessEnvelope"] & {
            data: components["schemas"]["TeamMember"][];
        };
        /**
         * @description Response of member create and invite.
         * @example {
         *       "success": true,
         *       "data": {
         *         "id": "1951438207513255937",
         *         "email": "ben@acme.com",
         *         "name": "ben",
         *         "teamId": "4021",
         *         "createdAt": "2025-08-01T10:00:00.000Z"
         *       }
         *     }
         */
        CreatedMemberEnvelope: components["schemas"]["TeamSuccessEnvelope"] & {
            data: components["schemas"]["CreatedMember"];
        };
        /**
         * @description Response of member impersonation.
         * @example {
         *       "success": true,
         *       "data": {
         *         "loginUrl": "https://team.service.test/auth/impersonation-login?token=q1Zr8vX0pD3mYk7T&callbackUrl=%2Flibrary",
         *         "expiryHours": 2,
         *         "expiresAt": "2025-08-01T12:00:00.000Z",
         *         "callbackUrl": "/library"
         *       }
         *     }
         */
        ImpersonationEnvelope: components["schemas"]["TeamSuccessEnvelope"] & {
            data: components["schemas"]["Impersonation"];
        };
        /**
         * @description Temporary object-storage credentials (result of sts-tmp).
         * @example {
         *       "endPoint": "oss-cn-hangzhou.aliyuncs.com",
         *       "bucket": "service-assets",
         *       "dir": "upload/u1673603133161799680/",
         *       "accessKeyId": "STS.NUh5V2Yx9kq3",
         *       "accessKeySecret": "7hXk2Pq9sVb1Lm4N",
         *       "securityToken": "CAIS8gF1q6Ft5B2yfSjIr5bV"
         *     }
         */
        UploadCredential: {
            /** @description Object-storage endpoint host. */
            endPoint: string;
            /** @description Bucket name. */
            bucket: string;
            /** @description Directory to upload into (may be empty). */
            dir: string;
            /** @description Temporary key id. */
            accessKeyId: string;
            /** @description Temporary key secret. */
            accessKeySecret: string;
            /** @description Temporary security token. */
            securityToken: string;
        };
        /**
         * @description Response of sts-tmp.
         * @example {
         *       "code": "0",
         *       "message": "success",
         *       "result": {
         *         "endPoint": "oss-cn-hangzhou.aliyuncs.com",
         *         "bucket": "service-assets",
         *         "dir": "",
         *         "accessKeyId": "STS.NUh5V2Yx9kq3",
         *         "accessKeySecret": "7hXk2Pq9sVb1Lm4N",
         *         "securityToken": "CAIS8gF1q6Ft5B2yfSjIr5bV"
         *       },
         *       "traceId": "4b3a2c1d0e9f8a7b"
         *     }
         */
        UploadCredentialEnvelope: components["schemas"]["OpenEnvelope"] & {
            result: components["schemas"]["UploadCredential"];
        };
        /**
         * @description Role of the caller in a team space, in the order of `roleId` 1..6: owner, admin,
         *     member_edit (member, may edit), member_view (member, view only), member_upload_view
         *     (member, may upload and view), member_upload_view_download (member, may upload, view and
         *     download).
         * @example member_upload_view
         * @enum {string}
         */
        RoleCode: "owner" | "admin" | "member_edit" | "member_view" | "member_upload_view" | "member_upload_view_download";
        /**
         * @description A team space the caller belongs to (result.orgList item of org-info). Write rule: the
         *     caller may write into a team space only when `roleCode` is not member_view, `valid` is
         *     true, and `invalidTime` is later than the current time.
         * @example {
         *       "id": "1949870453162360832",
         *       "orgNo": "ORG20240312001",
         *       "name": "Acme Design",
         *       "orgFeeType": 1,
         *       "roleId": 2,
         *       "roleCode": "admin",
         *       "roleName": "Administrator",
         *       "valid": true,
         *       "invalidTime": 1785482835010
         *     }
         */
        OrgSpace: {
            /** @description Team space id (the `orgId` of other calls). */
            id: components["schemas"]["Id"];
            /** @description Space identifier (a string, not an id). */
            orgNo: string;
            /** @description Team name. */
            name: string;
            /**
             * @description Edition: 0 free edition, 1 paid edition, 2 trial edition, 3 blank.
             * @enum {integer}
             */
            orgFeeType: 0 | 1 | 2 | 3;
            /**
             * @description Role (not an id): 1 owner, 2 admin, 3 member-edit, 4 member-view only,
             *     5 member-upload-view, 6 member-upload-view-download.
             * @enum {integer}
             */
            roleId: 1 | 2 | 3 | 4 | 5 | 6;
            roleCode: components["schemas"]["RoleCode"];
            /** @description Localized role label. */
            roleName: string;
            /** @description False means expired. */
            valid: boolean;
            /** @description Expiry time, epoch milliseconds. */
            invalidTime: number;
        };
        /**
         * @description Result of org-info.
         * @example {
         *       "orgList": [
         *         {
         *           "id": "4021",
         *           "orgNo": "ORG20240312001",
         *           "name": "Acme Design",
         *           "orgFeeType": 2,
         *           "roleId": 4,
         *           "roleCode": "member_view",
         *           "roleName": "Viewer",
         *           "valid": false,
         *           "invalidTime": 1719792000000
         *         }
         *       ]
         *     }
         */
        OrgInfoResult: {
            orgList: components["schemas"]["OrgSpace"][];
        };
        /**
         * @description Response of org-info.
         * @example {
         *       "code": 0,
         *       "message": "success",
         *       "result": {
         *         "orgList": [
         *           {
         *             "id": "1949870453162360832",
         *             "orgNo": "ORG20240312001",
         *             "name": "Acme Design",
         *             "orgFeeType": 1,
         *             "roleId": 1,
         *             "roleCode": "owner",
         *             "roleName": "Owner",
         *             "valid": true,
         *             "invalidTime": 1785482835010
         *           }
         *         ]
         *       },
         *       "traceId": "5c4b3a2d1e0f9a8b"
         *     }
         */
        OrgInfoEnvelope: components["schemas"]["OpenEnvelope"] & {
            result: components["schemas"]["OrgInfoResult"];
        };
        /**
         * @description An uploaded object to register as an asset (request item of material-save).
         * @example {
         *       "key": "upload/u1673603133161799680/brand-guide.pdf",
         *       "name": "brand-guide",
         *       "extension": "pdf",
         *       "size": 482113
         *     }
         * @example {
         *       "key": "upload/u1673603133161799680/hero.png",
         *       "folderId": "1949870453162360832",
         *       "name": "hero",
         *       "extension": "png",
         *       "size": 1048576,
         *       "width": 1920,
         *       "height": 1080,
         *       "description": "Homepage hero image",
         *       "tags": [
         *         "homepage",
         *         "summer"
         *       ],
         *       "link": "https://acme.com/summer"
         *     }
         */
        MaterialInput: {
            /** @description Unique object key of the uploaded file in the bucket. */
            key: string;
            /** @description Target folder id; 0 or omitted means the root folder. */
            folderId?: components["schemas"]["Id"];
            /** @description Name without extension. */
            name: string;
            /** @description Extension, without the dot; empty for a file that has none. */
            extension: string;
            /**
             * @description Size in bytes; it must equal the uploaded object's size, or the save is refused with
             *     a parameter error (MB100001).
             */
            size: number;
            /** @description Width. */
            width?: number;
            /** @description Height. */
            height?: number;
            /** @description Description. */
            description?: string;
            /** @description Tag names. */
            tags?: string[];
            /** @description Source link of the asset. */
            link?: string;
        };
        /**
         * @description The material-save fields. Sent at the top level by the SDK (the published sample's form);
         *     the documentation's field table nests them in `param` (`MaterialSaveParamForm`).
         * @example {
         *       "orgId": "1949870453162360832",
         *       "materials": [
         *         {
         *           "key": "upload/u1673603133161799680/hero.png",
         *           "folderId": "0",
         *           "name": "hero",
         *           "extension": "png",
         *           "size": 1048576
         *         }
         *       ]
         *     }
         */
        MaterialSaveInput: {
            /**
             * @description Team space id; omitted means the personal space. Do not pass orgId when the folder
             *     selector reported orgId 1.
             */
            orgId?: components["schemas"]["Id"];
            /**
             * @description The assets to save: 1 to 100 per call. The SDK's `materials.save()` sends longer lists
             *     in batches (`maxMaterialsPerSave`, at most 100).
             */
            materials: components["schemas"]["MaterialInput"][];
        };
        /**
         * @description The material-save body as the documentation's field table names it, nested in `param`.
         * @example {
         *       "param": {
         *         "materials": [
         *           {
         *             "key": "upload/u1673603133161799680/notes.txt",
         *             "name": "notes",
         *             "extension": "txt",
         *             "size": 12
         *           }
         *         ]
         *       }
         *     }
         */
        MaterialSaveParamForm: {
            param: components["schemas"]["MaterialSaveInput"];
        };
        /**
         * @description Body of material-save in either form: top-level `{orgId?, materials}` (sent by the SDK
         *     client, as in the published sample) or `{param: {orgId?, materials}}` (the field table).
         *     Which form the service accepts is not shown; the simulator accepts both unless its
         *     `materialSaveForm` quirk limits it to one, and the open client's `materialSaveForm`
         *     option chooses the form it sends.
         * @example {
         *       "materials": [
         *         {
         *           "key": "upload/u1673603133161799680/hero.png",
         *           "folderId": "1949870453162360832",
         *           "name": "hero",
         *           "extension": "png",
         *           "size": 1048576
         *         }
         *       ]
         *     }
         * @example {
         *       "param": {
         *         "orgId": "4021",
         *         "materials": [
         *           {
         *             "key": "upload/u1673603133161799680/hero.png",
         *             "name": "hero",
         *             "extension": "png",
         *             "size": 1048576
         *           }
         *         ]
         *       }
         *     }
         */
        MaterialSaveRequest: components["schemas"]["MaterialSaveInput"] | components["schemas"]["MaterialSaveParamForm"];
        /**
         * @description A saved asset (result.materials item of material-save).
         * @example {
         *       "id": "1951438207513255936",
         *       "key": "upload/u1673603133161799680/hero.png",
         *       "name": "hero",
         *       "accessUrl": "https://assets.service.test/a/1951438207513255936/hero.png"
         *     }
         */
        SavedMaterial: {
            /** @description Unique asset id. */
            id: components["schemas"]["Id"];
            /** @description Object key the asset was saved from. */
            key: string;
            /** @description Asset name. */
            name: string;
            /**
             * Format: uri
             * @description Permanent access link.
             */
            accessUrl: string;
        };
        /**
         * @description Result of material-save.
         * @example {
         *       "materials": [
         *         {
         *           "id": "1951438207513255936",
         *           "key": "upload/u1673603133161799680/hero.png",
         *           "name": "hero",
         *           "accessUrl": "https://assets.service.test/a/1951438207513255936/hero.png"
         *         }
         *       ]
         *     }
         */
        MaterialSaveResult: {
            materials: components["schemas"]["SavedMaterial"][];
        };
        /**
         * @description Response of material-save.
         * @example {
         *       "code": "0",
         *       "message": "success",
         *       "result": {
         *         "materials": [
         *           {
         *             "id": "1951438207513255936",
         *             "key": "upload/u1673603133161799680/hero.png",
         *             "name": "hero",
         *             "accessUrl": "https://assets.service.test/a/1951438207513255936/hero.png"
         *           },
         *           {
         *             "id": "1951438207513255938",
         *             "key": "upload/u1673603133161799680/brand-guide.pdf",
         *             "name": "brand-guide",
         *             "accessUrl": "https://assets.service.test/a/1951438207513255938/brand-guide.pdf"
         *           }
         *         ]
         *       }
         *     }
         */
        MaterialSaveEnvelope: components["schemas"]["OpenEnvelope"] & {
            result: components["schemas"]["MaterialSaveResult"];
        };
        /**
         * @description ADD (default) subscribes; DELETE cancels the matching subscription.
         * @default ADD
         * @example DELETE
         * @enum {string}
         */
        SubscriptionOperation: "ADD" | "DELETE";
        /**
         * @description The folder-subscription event type; FOLDER_CONTENT_UPDATE (the default) is the only one shown.
         * @example FOLDER_CONTENT_UPDATE
         * @enum {string}
         */
        FolderEventType: "FOLDER_CONTENT_UPDATE";
        /**
         * @description Body of folder-subscribe (OpenApiSubReq).
         * @example {
         *       "folderIds": [
         *         "1949870453162360832",
         *         "12"
         *       ],
         *       "callbackUrl": "https://hooks.acme.com/service/folders/Xq3v9TzK1m2p"
         *     }
         * @example {
         *       "folderIds": [
         *         "12"
         *       ],
         *       "callbackUrl": "https://hooks.acme.com/service/folders/Xq3v9TzK1m2p",
         *       "eventType": "FOLDER_CONTENT_UPDATE",
         *       "operation": "DELETE"
         *     }
         */
        FolderSubscribeRequest: {
            /** @description Folders to (un)subscribe; 0 is the root folder (the one id known without the folder selector). */
            folderIds: components["schemas"]["Id"][];
            /**
             * Format: uri
             * @description Address receiving callbacks (http or https).
             */
            callbackUrl: string;
            /** @default FOLDER_CONTENT_UPDATE */
            eventType?: components["schemas"]["FolderEventType"];
            operation?: components["schemas"]["SubscriptionOperation"];
        };
        /**
         * @description The asset events that may be subscribed; other codes are not offered.
         *     MATERIAL_INBOUND_COMPLETED: asset intake actually succeeded. MATERIAL_ADDED_TO_FOLDER:
         *     asset added to a folder. MATERIAL_METADATA_UPDATED: asset metadata changed.
         *     MATERIAL_VERSION_CHANGED: version added, set as cover, or removed. MATERIAL_DELETED: asset
         *     deleted.
         * @example MATERIAL_DELETED
         * @enum {string}
         */
        AssetEventType: "MATERIAL_INBOUND_COMPLETED" | "MATERIAL_ADDED_TO_FOLDER" | "MATERIAL_METADATA_UPDATED" | "MATERIAL_VERSION_CHANGED" | "MATERIAL_DELETED";
        /**
         * @description Body of material-automation-subscribe.
         * @example {
         *       "callbackUrl": "https://hooks.acme.com/service/events/Vb7nQ2xR8sLk",
         *       "eventTypes": [
         *         "MATERIAL_INBOUND_COMPLETED",
         *         "MATERIAL_DELETED"
         *       ]
         *     }
         * @example {
         *       "callbackUrl": "https://hooks.acme.com/service/events/Vb7nQ2xR8sLk",
         *       "eventTypes": [
         *         "MATERIAL_DELETED"
         *       ],
         *       "operation": "DELETE"
         *     }
         */
        EventSubscribeRequest: {
            /**
             * Format: uri
             * @description Webhook address (http or https).
             */
            callbackUrl: string;
            /** @description One or more event codes; several in one call. */
            eventTypes: components["schemas"]["AssetEventType"][];
            operation?: components["schemas"]["SubscriptionOperation"];
        };
        /**
         * @description Response of folder-subscribe and material-automation-subscribe.
         * @example {
         *       "code": "0",
         *       "message": "success",
         *       "result": true,
         *       "traceId": "2f3e4d5c6b7a8f9e"
         *     }
         * @example {
         *       "code": "200",
         *       "message": "success",
         *       "result": true,
         *       "traceId": "2f3e4d5c6b7a8f9f"
         *     }
         */
        SubscribeEnvelope: components["schemas"]["OpenEnvelope"] & {
            /** @description Whether the operation succeeded. */
            result: boolean;
        };
        /**
         * @description An asset event type entry (result item of the event-types query).
         * @example {
         *       "code": "MATERIAL_DELETED",
         *       "desc": "Asset deleted",
         *       "needsConfig": false,
         *       "subscribed": true
         *     }
         */
        EventTypeEntry: {
            /** @description Event code, used in `eventTypes` when subscribing. */
            code: string;
            /** @description Description text. */
            desc: string;
            /** @description Whether a config must be passed; false for all currently offered events. */
            needsConfig: boolean;
            /** @description Whether the calling API key has an active subscription for this event. */
            subscribed: boolean;
        };
        /**
         * @description The event-types list wrapped in the open envelope.
         * @example {
         *       "code": "0",
         *       "message": "success",
         *       "result": [
         *         {
         *           "code": "MATERIAL_INBOUND_COMPLETED",
         *           "desc": "Asset intake succeeded",
         *           "needsConfig": false,
         *           "subscribed": false
         *         },
         *         {
         *           "code": "MATERIAL_DELETED",
         *           "desc": "Asset deleted",
         *           "needsConfig": false,
         *           "subscribed": true
         *         }
         *       ],
         *       "traceId": "8e7d6c5b4a3f2e1d"
         *     }
         */
        EventTypeListEnvelope: components["schemas"]["OpenEnvelope"] & {
            result: components["schemas"]["EventTypeEntry"][];
        };
        /**
         * @description The event-types response, wrapped in the open envelope or a bare array (not shown which).
         * @example [
         *       {
         *         "code": "MATERIAL_ADDED_TO_FOLDER",
         *         "desc": "Asset added to a folder",
         *         "needsConfig": false,
         *         "subscribed": false
         *       }
         *     ]
         * @example {
         *       "code": 0,
         *       "message": "success",
         *       "result": [],
         *       "traceId": "8e7d6c5b4a3f2e1e"
         *     }
         */
        EventTypeListResponse: components["schemas"]["EventTypeListEnvelope"] | components["schemas"]["EventTypeEntry"][];
        /**
         * @description An asset in a folder-content callback (MaterialCallbackDTO). For ADD and UPDATE the
         *     documentation marks id, parentIds, userId, name, downloadUrl, source, extension and size as
         *     required, but nullable fields may be null in real callbacks (including downloadUrl and
         *     size), and for DELETE an asset may carry only identifying fields: only `id` is always
         *     present. Unknown fields may appear.
         * @example {
         *       "id": "1951438207513255936",
         *       "parentIds": [
         *         "1949870453162360832",
         *         "1949870453162360999"
         *       ],
         *       "userId": "1673603133161799680",
         *       "name": "hero.png",
         *       "downloadUrl": "https://assets.service.test/d/1951438207513255936?sig=abc",
         *       "source": 2,
         *       "link": null,
         *       "extension": "png",
         *       "duration": 0,
         *       "size": 1048576,
         *       "width": 1920,
         *       "height": 1080,
         *       "description": "Homepage hero image",
         *       "score": 4,
         *       "createUser": "1673603133161799680"
         *     }
         * @example {
         *       "id": "1951438207513255936"
         *     }
         */
        MaterialCallbackAsset: {
            /** @description Asset id. */
            id: components["schemas"]["Id"];
            /** @description Ancestor folder ids from the root to the direct parent. */
            parentIds?: components["schemas"]["Id"][] | null;
            /** @description Id of the user who triggered the change (a string, often 19 digits). */
            userId?: components["schemas"]["IdString"] | null;
            /** @description Original file name. */
            name?: string | null;
            /** @description Download link (permissioned or temporary). */
            downloadUrl?: string | null;
            /** @description How the asset arrived: 1 web page, 2 upload, 3 copy. Other values may appear (the service may add some): receivers keep them. */
            source?: (1 | 2 | 3 | (number & {})) | null;
            /** @description Related link. */
            link?: string | null;
            /** @description Extension without dot. */
            extension?: string | null;
            /** @description Duration in seconds; only for audio/video, null or 0 otherwise. */
            duration?: number | null;
            /**
             * @description File size. The documentation's field table says KB, but comparable asset samples carry
             *     byte values: the unit is unverified (inference: bytes). Not the unit of material-save
             *     (bytes).
             */
            size?: number | null;
            /** @description Width in pixels. */
            width?: number | null;
            /** @description Height in pixels. */
            height?: number | null;
            /** @description Description. */
            description?: string | null;
            /** @description Rating, generally 1 to 5. */
            score?: number | null;
            /** @description Creator id (a string); may differ from userId. */
            createUser?: components["schemas"]["IdString"] | null;
        };
        /**
         * @description Body of the folder-content callback. Receivers tolerate null fields and unknown fields.
         *     Units for size (unverified, see `MaterialCallbackAsset.size`) and duration (seconds) apply
         *     to this callback only.
         * @example {
         *       "eventType": "FOLDER_CONTENT_UPDATE",
         *       "folderId": "1949870453162360832",
         *       "eventTime": "1753946835010",
         *       "type": "ADD",
         *       "assets": [
         *         {
         *           "id": "1951438207513255936",
         *           "parentIds": [
         *             "1949870453162360832"
         *           ],
         *           "userId": "1673603133161799680",
         *           "name": "IMG_0042.jpg",
         *           "downloadUrl": null,
         *           "source": 2,
         *           "link": null,
         *           "extension": "jpg",
         *           "duration": null,
         *           "size": null,
         *           "width": null,
         *           "height": null,
         *           "description": null,
         *           "score": null,
         *           "createUser": "1673603133161799680"
         *         }
         *       ]
         *     }
         * @example {
         *       "eventType": "FOLDER_CONTENT_UPDATE",
         *       "folderId": "12",
         *       "eventTime": "2025-07-31T15:27:15.010+08:00",
         *       "type": "UPDATE",
         *       "orgId": "4021",
         *       "assets": [
         *         {
         *           "id": "98765",
         *           "parentIds": [
         *             "1",
         *             "12"
         *           ],
         *           "userId": "1673603133161799680",
         *           "name": "spec-sheet.pdf",
         *           "downloadUrl": "https://assets.service.test/d/98765?sig=def",
         *           "source": 1,
         *           "link": "https://acme.com/spec",
         *           "extension": "pdf",
         *           "size": 220,
         *           "description": "Updated spec sheet",
         *           "createUser": "1002"
         *         }
         *       ]
         *     }
         * @example {
         *       "eventType": "FOLDER_CONTENT_UPDATE",
         *       "folderId": "1949870453162360832",
         *       "eventTime": "1753946900000",
         *       "type": "DELETE",
         *       "assets": [
         *         {
         *           "id": "1951438207513255936"
         *         },
         *         {
         *           "id": "1951438207513255937",
         *           "parentIds": [
         *             "1949870453162360832"
         *           ]
         *         }
         *       ]
         *     }
         */
        FolderContentCallback: {
            eventType: components["schemas"]["FolderEventType"];
            /** @description The changed folder. */
            folderId: components["schemas"]["Id"];
            /**
             * @description When the change happened. Described as ISO 8601 with offset, but the live sample
             *     carries epoch milliseconds as a string ("1753946835010"): both forms are sent. The
             *     table marks it required, yet receivers must tolerate a callback without it.
             */
            eventTime?: string;
            /** @description What happened to the assets: ADD added, UPDATE changed, DELETE removed (assets may then carry only identifying fields). Other values may appear (the service may add some): receivers keep them. */
            type: "ADD" | "UPDATE" | "DELETE" | (string & {});
            /** @description The affected assets; null when the callback carries none (receivers tolerate null fields). */
            assets: components["schemas"]["MaterialCallbackAsset"][] | null;
            /** @description Owning team id; absent for the personal space (and absent in the live sample). */
            orgId?: components["schemas"]["Id"] | null;
        };
        /**
         * @description One file of a formal upload in MATERIAL_INBOUND_COMPLETED (`uploadResults` item).
         * @example {
         *       "id": "1951438207513255936",
         *       "name": "hero",
         *       "extension": "png",
         *       "size": 1048576,
         *       "width": 1920,
         *       "height": 1080,
         *       "uploadStatus": 1
         *     }
         */
        InboundUploadResult: {
            /** @description Asset id. */
            id?: components["schemas"]["Id"];
            /** @description Asset name. */
            name?: string;
            /** @description Extension. */
            extension?: string;
            /** @description File size (unit not shown). */
            size?: number;
            /** @description Width in pixels. */
            width?: number;
            /** @description Height in pixels. */
            height?: number;
            /** @description Status of this file's intake; its values are not shown by the service's documentation. */
            uploadStatus?: number | string;
        };
        /**
         * @description Payload of MATERIAL_INBOUND_COMPLETED. `source` UPLOAD_ASSETS (formal upload: carries
         *     uploadResults and materialIds) or PENDING_INBOUND_CONFIRM (confirmed pending intake:
         *     carries pendingInboundIdToMaterialId). Absent fields have no value.
         * @example {
         *       "source": "UPLOAD_ASSETS",
         *       "initiatorUserId": "1673603133161799680",
         *       "uploadResults": [
         *         {
         *           "id": "1951438207513255936",
         *           "name": "hero",
         *           "extension": "png",
         *           "size": 1048576,
         *           "width": 1920,
         *           "height": 1080,
         *           "uploadStatus": 1
         *         }
         *       ],
         *       "materialIds": [
         *         "1951438207513255936"
         *       ]
         *     }
         * @example {
         *       "source": "PENDING_INBOUND_CONFIRM",
         *       "initiatorUserId": "1002",
         *       "pendingInboundIdToMaterialId": {
         *         "77": "78",
         *         "1951438207513255001": "1951438207513255936"
         *       }
         *     }
         */
        MaterialInboundCompletedPayload: {
            /** @description UPLOAD_ASSETS: formal upload. PENDING_INBOUND_CONFIRM: confirmed pending intake. Other values may appear (the service may add some): receivers keep them. */
            source?: "UPLOAD_ASSETS" | "PENDING_INBOUND_CONFIRM" | (string & {});
            /** @description User who started the intake. */
            initiatorUserId?: components["schemas"]["Id"];
            /** @description Formal upload only. */
            uploadResults?: components["schemas"]["InboundUploadResult"][];
            /** @description Formal upload only; ids of the created assets. */
            materialIds?: components["schemas"]["Id"][];
            /** @description Confirmed pending intake only; maps each pending-intake id (object key) to the created asset id. */
            pendingInboundIdToMaterialId?: {
                [key: string]: components["schemas"]["Id"];
            };
        };
        /**
         * @description Webhook body of MATERIAL_INBOUND_COMPLETED.
         * @example {
         *       "eventId": "evt_01J4Q8ZC1W9B3K7M",
         *       "eventType": "MATERIAL_INBOUND_COMPLETED",
         *       "eventTime": "1753946835010",
         *       "payload": {
         *         "source": "UPLOAD_ASSETS",
         *         "initiatorUserId": "1673603133161799680",
         *         "uploadResults": [
         *           {
         *             "id": "1951438207513255936",
         *             "name": "hero",
         *             "extension": "png",
         *             "size": 1048576,
         *             "width": 1920,
         *             "height": 1080,
         *             "uploadStatus": 1
         *           }
         *         ],
         *         "materialIds": [
         *           "1951438207513255936"
         *         ]
         *       }
         *     }
         */
        MaterialInboundCompletedEvent: {
            /** @description Idempotency id; receivers de-duplicate on it. */
            eventId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            eventType: "MATERIAL_INBOUND_COMPLETED";
            /** @description Epoch milliseconds as a string. */
            eventTime: string;
            payload: components["schemas"]["MaterialInboundCompletedPayload"];
        };
        /**
         * @description Payload of MATERIAL_ADDED_TO_FOLDER. Absent fields have no value.
         * @example {
         *       "materialIds": [
         *         "1951438207513255936"
         *       ],
         *       "folderIds": [
         *         "1949870453162360832"
         *       ]
         *     }
         */
        MaterialAddedToFolderPayload: {
            /** @description Cover asset ids of the newly created relations. */
            materialIds?: components["schemas"]["Id"][];
            /** @description Target folders. */
            folderIds?: components["schemas"]["Id"][];
        };
        /**
         * @description Webhook body of MATERIAL_ADDED_TO_FOLDER.
         * @example {
         *       "eventId": "evt_01J4Q8ZD7T2N5R1X",
         *       "eventType": "MATERIAL_ADDED_TO_FOLDER",
         *       "eventTime": "1753946836120",
         *       "payload": {
         *         "materialIds": [
         *           "1951438207513255936",
         *           "55"
         *         ],
         *         "folderIds": [
         *           "1949870453162360832"
         *         ]
         *       }
         *     }
         */
        MaterialAddedToFolderEvent: {
            /** @description Idempotency id; receivers de-duplicate on it. */
            eventId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            eventType: "MATERIAL_ADDED_TO_FOLDER";
            /** @description Epoch milliseconds as a string. */
            eventTime: string;
            payload: components["schemas"]["MaterialAddedToFolderPayload"];
        };
        /**
         * @description materials[] item for changeType BASIC; the values submitted in this change (a field is present only when it has a value).
         * @example {
         *       "materialId": "1951438207513255936",
         *       "name": "hero-final",
         *       "score": 5
         *     }
         */
        BasicChange: {
            materialId?: components["schemas"]["Id"];
            name?: string;
            description?: string;
            /** @description Rating, generally 1 to 5. */
            score?: number;
            link?: string;
        };
        /**
         * @description materials[] item for changeType VALIDITY (types of the validity fields are not shown by the service's documentation).
         * @example {
         *       "materialId": "1951438207513255936",
         *       "validityStatus": 1,
         *       "validityStatusName": "Valid",
         *       "daysToExpire": 30,
         *       "startTime": 1753946835010,
         *       "endTime": 1756538835010,
         *       "isPermanent": false
         *     }
         */
        ValidityChange: {
            materialId?: components["schemas"]["Id"];
            /** @description Validity status code. */
            validityStatus?: number | string;
            /** @description Label of the validity status. */
            validityStatusName?: string;
            /** @description Days until the asset expires. */
            daysToExpire?: number;
            /** @description Start of validity (epoch milliseconds or a date string; form not shown). */
            startTime?: number | string;
            /** @description End of validity (epoch milliseconds or a date string; form not shown). */
            endTime?: number | string;
            /** @description Whether the asset never expires. */
            isPermanent?: boolean;
        };
        /**
         * @description materials[] item for changeType TAGS.
         * @example {
         *       "materialId": "1951438207513255936",
         *       "tagIds": [
         *         "1951438207513200001",
         *         "17"
         *       ],
         *       "tagNames": [
         *         "summer",
         *         "homepage"
         *       ]
         *     }
         */
        TagsChange: {
            materialId?: components["schemas"]["Id"];
            tagIds?: components["schemas"]["Id"][];
            tagNames?: string[];
        };
        /**
         * @description materials[] item for changeType OWNER.
         * @example {
         *       "materialId": "1951438207513255940",
         *       "ownerUserId": "1673603133161799680"
         *     }
         */
        OwnerChange: {
            /** @description The new asset id after the transfer. */
            materialId?: components["schemas"]["Id"];
            /** @description The new owner. */
            ownerUserId?: components["schemas"]["Id"];
        };
        /**
         * @description materials[] item for changeType METADATA.
         * @example {
         *       "materialId": "1951438207513255936",
         *       "recordId": "3001",
         *       "metadata": {
         *         "campaign": "summer-2025",
         *         "approved": true
         *       }
         *     }
         */
        MetadataChange: {
            materialId?: components["schemas"]["Id"];
            /** @description Metadata record id (optional). */
            recordId?: components["schemas"]["Id"];
            /** @description Only the custom fields created or updated now, by field name. */
            metadata?: Record<string, unknown>;
        };
        /**
         * @description One custom field of a CUSTOM_FIELD change; its other members are not shown by the service's documentation.
         * @example {
         *       "templateId": "501",
         *       "value": "Q3"
         *     }
         */
        CustomFieldValue: {
            /** @description Custom field template id. */
            templateId?: components["schemas"]["Id"];
        } & {
            [key: string]: unknown;
        };
        /**
         * @description materials[] item for changeType CUSTOM_FIELD.
         * @example {
         *       "materialId": "1951438207513255936",
         *       "customFields": [
         *         {
         *           "templateId": "501",
         *           "value": "Q3"
         *         }
         *       ]
         *     }
         */
        CustomFieldChange: {
            materialId?: components["schemas"]["Id"];
            customFields?: components["schemas"]["CustomFieldValue"][];
        };
        /**
         * @description MATERIAL_METADATA_UPDATED payload with changeType BASIC.
         * @example {
         *       "changeType": "BASIC",
         *       "materialIds": [
         *         "1951438207513255936"
         *       ],
         *       "materials": [
         *         {
         *           "materialId": "1951438207513255936",
         *           "name": "hero-final",
         *           "description": "Final hero"
         *         }
         *       ]
         *     }
         */
        BasicChangePayload: {
            /** @constant */
            changeType: "BASIC";
            materialIds?: components["schemas"]["Id"][];
            materials?: components["schemas"]["BasicChange"][];
        };
        /**
         * @description MATERIAL_METADATA_UPDATED payload with changeType VALIDITY.
         * @example {
         *       "changeType": "VALIDITY",
         *       "materialIds": [
         *         "1951438207513255936"
         *       ],
         *       "materials": [
         *         {
         *           "materialId": "1951438207513255936",
         *           "isPermanent": true
         *         }
         *       ]
         *     }
         */
        ValidityChangePayload: {
            /** @constant */
            changeType: "VALIDITY";
            materialIds?: components["schemas"]["Id"][];
            materials?: components["schemas"]["ValidityChange"][];
        };
        /**
         * @description MATERIAL_METADATA_UPDATED payload with changeType TAGS.
         * @example {
         *       "changeType": "TAGS",
         *       "materialIds": [
         *         "1951438207513255936"
         *       ],
         *       "materials": [
         *         {
         *           "materialId": "1951438207513255936",
         *           "tagIds": [
         *             "17"
         *           ],
         *           "tagNames": [
         *             "homepage"
         *           ]
         *         }
         *       ]
         *     }
         */
        TagsChangePayload: {
            /** @constant */
            changeType: "TAGS";
            materialIds?: components["schemas"]["Id"][];
            materials?: components["schemas"]["TagsChange"][];
        };
        /**
         * @description MATERIAL_METADATA_UPDATED payload with changeType OWNER.
         * @example {
         *       "changeType": "OWNER",
         *       "materialIds": [
         *         "1951438207513255936"
         *       ],
         *       "materials": [
         *         {
         *           "materialId": "1951438207513255940",
         *           "ownerUserId": "1673603133161799680"
         *         }
         *       ]
         *     }
         */
        OwnerChangePayload: {
            /** @constant */
            changeType: "OWNER";
            materialIds?: components["schemas"]["Id"][];
            materials?: components["schemas"]["OwnerChange"][];
        };
        /**
         * @description MATERIAL_METADATA_UPDATED payload with changeType METADATA.
         * @example {
         *       "changeType": "METADATA",
         *       "materialIds": [
         *         "1951438207513255936"
         *       ],
         *       "materials": [
         *         {
         *           "materialId": "1951438207513255936",
         *           "metadata": {
         *             "campaign": "summer-2025"
         *           }
         *         }
         *       ]
         *     }
         */
        MetadataChangePayload: {
            /** @constant */
            changeType: "METADATA";
            materialIds?: components["schemas"]["Id"][];
            materials?: components["schemas"]["MetadataChange"][];
        };
        /**
         * @description MATERIAL_METADATA_UPDATED payload with changeType CUSTOM_FIELD.
         * @example {
         *       "changeType": "CUSTOM_FIELD",
         *       "materialIds": [
         *         "1951438207513255936"
         *       ],
         *       "materials": [
         *         {
         *           "materialId": "1951438207513255936",
         *           "customFields": [
         *             {
         *               "templateId": "501"
         *             },
         *             {
         *               "templateId": "1951438207513200502"
         *             }
         *           ]
         *         }
         *       ]
         *     }
         */
        CustomFieldChangePayload: {
            /** @constant */
            changeType: "CUSTOM_FIELD";
            materialIds?: components["schemas"]["Id"][];
            materials?: components["schemas"]["CustomFieldChange"][];
        };
        /**
         * @description MATERIAL_METADATA_UPDATED payload with a changeType not listed here (the service may add
         *     some): its `materials[]` items are objects whose fields are not shown.
         * @example {
         *       "changeType": "STATUS",
         *       "materialIds": [
         *         "1951438207513255936"
         *       ],
         *       "materials": [
         *         {
         *           "status": "ARCHIVED",
         *           "archivedBy": "ops"
         *         }
         *       ]
         *     }
         */
        OtherMetadataChangePayload: {
            changeType: string;
            materialIds?: components["schemas"]["Id"][];
            materials?: Record<string, unknown>[];
        };
        /**
         * @description Payload of MATERIAL_METADATA_UPDATED, by changeType: BASIC (name, description, score,
         *     link), VALIDITY (validity period), TAGS, OWNER (ownership transfer), METADATA (custom
         *     metadata values), CUSTOM_FIELD (custom field templates). `materials[]` items hold only the
         *     fields changed for that changeType (a field is present only when it has a value). The
         *     service may add changeTypes: a payload with another changeType is
         *     `OtherMetadataChangePayload`, which receivers keep.
         * @example {
         *       "changeType": "OWNER",
         *       "materialIds": [
         *         "42"
         *       ],
         *       "materials": [
         *         {
         *           "materialId": "43",
         *           "ownerUserId": "1002"
         *         }
         *       ]
         *     }
         */
        MaterialMetadataUpdatedPayload: components["schemas"]["BasicChangePayload"] | components["schemas"]["ValidityChangePayload"] | components["schemas"]["TagsChangePayload"] | components["schemas"]["OwnerChangePayload"] | components["schemas"]["MetadataChangePayload"] | components["schemas"]["CustomFieldChangePayload"] | components["schemas"]["OtherMetadataChangePayload"];
        /**
         * @description Webhook body of MATERIAL_METADATA_UPDATED.
         * @example {
         *       "eventId": "evt_01J4Q90A1B2C3D4E",
         *       "eventType": "MATERIAL_METADATA_UPDATED",
         *       "eventTime": "1753946840000",
         *       "payload": {
         *         "changeType": "BASIC",
         *         "materialIds": [
         *           "1951438207513255936"
         *         ],
         *         "materials": [
         *           {
         *             "materialId": "1951438207513255936",
         *             "name": "hero-final",
         *             "description": "Final hero",
         *             "score": 5,
         *             "link": "https://acme.com/summer"
         *           }
         *         ]
         *       }
         *     }
         * @example {
         *       "eventId": "evt_01J4Q90A1B2C3D4F",
         *       "eventType": "MATERIAL_METADATA_UPDATED",
         *       "eventTime": "1753946840001",
         *       "payload": {
         *         "changeType": "VALIDITY",
         *         "materialIds": [
         *           "1951438207513255936"
         *         ],
         *         "materials": [
         *           {
         *             "materialId": "1951438207513255936",
         *             "validityStatus": 2,
         *             "validityStatusName": "Expiring soon",
         *             "daysToExpire": 3,
         *             "startTime": 1753946835010,
         *             "endTime": 1754206035010,
         *             "isPermanent": false
         *           }
         *         ]
         *       }
         *     }
         * @example {
         *       "eventId": "evt_01J4Q90A1B2C3D50",
         *       "eventType": "MATERIAL_METADATA_UPDATED",
         *       "eventTime": "1753946840002",
         *       "payload": {
         *         "changeType": "TAGS",
         *         "materialIds": [
         *           "1951438207513255936"
         *         ],
         *         "materials": [
         *           {
         *             "materialId": "1951438207513255936",
         *             "tagIds": [
         *               "1951438207513200001",
         *               "17"
         *             ],
         *             "tagNames": [
         *               "summer",
         *               "homepage"
         *             ]
         *           }
         *         ]
         *       }
         *     }
         * @example {
         *       "eventId": "evt_01J4Q90A1B2C3D51",
         *       "eventType": "MATERIAL_METADATA_UPDATED",
         *       "eventTime": "1753946840003",
         *       "payload": {
         *         "changeType": "OWNER",
         *         "materialIds": [
         *           "1951438207513255936"
         *         ],
         *         "materials": [
         *           {
         *             "materialId": "1951438207513255940",
         *             "ownerUserId": "1673603133161799680"
         *           }
         *         ]
         *       }
         *     }
         * @example {
         *       "eventId": "evt_01J4Q90A1B2C3D52",
         *       "eventType": "MATERIAL_METADATA_UPDATED",
         *       "eventTime": "1753946840004",
         *       "payload": {
         *         "changeType": "METADATA",
         *         "materialIds": [
         *           "1951438207513255936"
         *         ],
         *         "materials": [
         *           {
         *             "materialId": "1951438207513255936",
         *             "recordId": "1951438207513299999",
         *             "metadata": {
         *               "campaign": "summer-2025",
         *               "reviewed": true
         *             }
         *           }
         *         ]
         *       }
         *     }
         * @example {
         *       "eventId": "evt_01J4Q90A1B2C3D53",
         *       "eventType": "MATERIAL_METADATA_UPDATED",
         *       "eventTime": "1753946840005",
         *       "payload": {
         *         "changeType": "CUSTOM_FIELD",
         *         "materialIds": [
         *           "1951438207513255936"
         *         ],
         *         "materials": [
         *           {
         *             "materialId": "1951438207513255936",
         *             "customFields": [
         *               {
         *                 "templateId": "501",
         *                 "name": "Quarter",
         *                 "value": "Q3"
         *               }
         *             ]
         *           }
         *         ]
         *       }
         *     }
         */
        MaterialMetadataUpdatedEvent: {
            /** @description Idempotency id; receivers de-duplicate on it. */
            eventId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            eventType: "MATERIAL_METADATA_UPDATED";
            /** @description Epoch milliseconds as a string. */
            eventTime: string;
            payload: components["schemas"]["MaterialMetadataUpdatedPayload"];
        };
        /**
         * @description Other values may appear (the service may add some): receivers keep them.
         *     ADD: a version was added. SET_COVER: a version was set as the cover. REPLACE_COVER_ON_UPLOAD:
         *     an upload replaced the cover. REMOVE: a version was removed (then `coverMaterialId` is the
         *     removed version's asset id and `newMaterialId` the newest asset of that version line).
         * @example SET_COVER
         */
        VersionAction: "ADD" | "SET_COVER" | "REPLACE_COVER_ON_UPLOAD" | "REMOVE" | (string & {});
        /**
         * @description Payload of MATERIAL_VERSION_CHANGED. Absent fields have no value.
         * @example {
         *       "coverMaterialId": "1951438207513255936",
         *       "newMaterialId": "1951438207513255941",
         *       "action": "ADD",
         *       "version": 2
         *     }
         */
        MaterialVersionChangedPayload: {
            /** @description Cover asset id; for REMOVE, the removed version's asset id. */
            coverMaterialId?: components["schemas"]["Id"];
            /** @description The new version's asset id; for REMOVE, the newest asset of the version line after removal. */
            newMaterialId?: components["schemas"]["Id"];
            action?: components["schemas"]["VersionAction"];
            /** @description The asset version concerned (optional; its type is not shown by the service's documentation). */
            version?: unknown;
            /** @description Other values may appear: receivers keep them. For REMOVE (optional): ADD removed and added to the current folder; DELETE removed and sent to the recycle bin. */
            removeType?: "ADD" | "DELETE" | (string & {});
            /** @description Optional; whether the version group was dissolved. */
            versionGroupDissolved?: boolean;
        };
        /**
         * @description Webhook body of MATERIAL_VERSION_CHANGED.
         * @example {
         *       "eventId": "evt_01J4Q91F6G7H8J9K",
         *       "eventType": "MATERIAL_VERSION_CHANGED",
         *       "eventTime": "1753946850000",
         *       "payload": {
         *         "coverMaterialId": "1951438207513255936",
         *         "newMaterialId": "1951438207513255941",
         *         "action": "SET_COVER",
         *         "version": 2
         *       }
         *     }
         * @example {
         *       "eventId": "evt_01J4Q91F6G7H8J9M",
         *       "eventType": "MATERIAL_VERSION_CHANGED",
         *       "eventTime": "1753946850001",
         *       "payload": {
         *         "coverMaterialId": "1951438207513255941",
         *         "newMaterialId": "1951438207513255936",
         *         "action": "REMOVE",
         *         "removeType": "DELETE",
         *         "versionGroupDissolved": true
         *       }
         *     }
         */
        MaterialVersionChangedEvent: {
            /** @description Idempotency id; receivers de-duplicate on it. */
            eventId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            eventType: "MATERIAL_VERSION_CHANGED";
            /** @description Epoch milliseconds as a string. */
            eventTime: string;
            payload: components["schemas"]["MaterialVersionChangedPayload"];
        };
        /**
         * @description MATERIAL_DELETED materials[] item, a snapshot taken before deletion.
         * @example {
         *       "materialId": "1951438207513255936",
         *       "name": "hero",
         *       "materialType": 1,
         *       "extension": "png",
         *       "tagIds": [
         *         "17"
         *       ],
         *       "tagNames": [
         *         "homepage"
         *       ],
         *       "folderIds": [
         *         "1949870453162360832"
         *       ],
         *       "ownerUserId": "1673603133161799680",
         *       "createUserId": "1002"
         *     }
         */
        DeletedMaterialSnapshot: {
            materialId?: components["schemas"]["Id"];
            name?: string;
            /** @description Kind of asset (values not shown by the service's documentation). */
            materialType?: number | string;
            extension?: string;
            tagIds?: components["schemas"]["Id"][];
            tagNames?: string[];
            folderIds?: components["schemas"]["Id"][];
            ownerUserId?: components["schemas"]["Id"];
            createUserId?: components["schemas"]["Id"];
        };
        /**
         * @description Payload of MATERIAL_DELETED. Absent fields have no value.
         * @example {
         *       "materialIds": [
         *         "42"
         *       ],
         *       "deleteAction": "PERMANENT"
         *     }
         */
        MaterialDeletedPayload: {
            materialIds?: components["schemas"]["Id"][];
            /** @description RECYCLE: first removal, into the recycle bin. PERMANENT: permanent cleanup after recycling. Other values may appear (the service may add some): receivers keep them. */
            deleteAction?: "RECYCLE" | "PERMANENT" | (string & {});
            /** @description Optional; folders deleted in the same batch. */
            folderIds?: components["schemas"]["Id"][];
            /** @description Snapshot before deletion. */
            materials?: components["schemas"]["DeletedMaterialSnapshot"][];
        };
        /**
         * @description Webhook body of MATERIAL_DELETED.
         * @example {
         *       "eventId": "evt_01J4Q92M3N4P5Q6R",
         *       "eventType": "MATERIAL_DELETED",
         *       "eventTime": "1753946860000",
         *       "payload": {
         *         "materialIds": [
         *           "1951438207513255936"
         *         ],
         *         "deleteAction": "RECYCLE",
         *         "folderIds": [
         *           "1949870453162361000"
         *         ],
         *         "materials": [
         *           {
         *             "materialId": "1951438207513255936",
         *             "name": "hero",
         *             "materialType": 1,
         *             "extension": "png",
         *             "tagIds": [
         *               "17"
         *             ],
         *             "tagNames": [
         *               "homepage"
         *             ],
         *             "folderIds": [
         *               "1949870453162360832"
         *             ],
         *             "ownerUserId": "1673603133161799680",
         *             "createUserId": "1673603133161799680"
         *           }
         *         ]
         *       }
         *     }
         * @example {
         *       "eventId": "evt_01J4Q92M3N4P5Q6S",
         *       "eventType": "MATERIAL_DELETED",
         *       "eventTime": "1756538860000",
         *       "payload": {
         *         "materialIds": [
         *           "1951438207513255936"
         *         ],
         *         "deleteAction": "PERMANENT"
         *       }
         *     }
         */
        MaterialDeletedEvent: {
            /** @description Idempotency id; receivers de-duplicate on it. */
            eventId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            eventType: "MATERIAL_DELETED";
            /** @description Epoch milliseconds as a string. */
            eventTime: string;
            payload: components["schemas"]["MaterialDeletedPayload"];
        };
        /**
         * @description Any asset-event webhook body, discriminated by eventType.
         * @example {
         *       "eventId": "evt_01J4Q8ZD7T2N5R1Y",
         *       "eventType": "MATERIAL_ADDED_TO_FOLDER",
         *       "eventTime": "1753946836121",
         *       "payload": {
         *         "materialIds": [
         *           "1951438207513255936"
         *         ],
         *         "folderIds": [
         *           "12"
         *         ]
         *       }
         *     }
         */
        AssetEvent: components["schemas"]["MaterialInboundCompletedEvent"] | components["schemas"]["MaterialAddedToFolderEvent"] | components["schemas"]["MaterialMetadataUpdatedEvent"] | components["schemas"]["MaterialVersionChangedEvent"] | components["schemas"]["MaterialDeletedEvent"];
    };
    responses: {
        /** @description Invalid id or email (seen on the live service; docs/service/envelopes.md). */
        TeamBadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TeamErrorEnvelope"];
            };
        };
        /**
         * @description The team API key is missing, the Authorization header is not of the form
         *     `Bearer <key>`, or the key is unknown: one text for each.
         */
        TeamUnauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TeamErrorEnvelope"];
            };
        };
        /**
         * @description The email domain is not on the team's verified whitelist (the text names the domain).
         *     Also seen on the live service when the team has no free seat (docs/service/envelopes.md).
         */
        TeamForbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TeamErrorEnvelope"];
            };
        };
        /** @description The member was not found in this team. */
        TeamNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "Member not found in this team"
                 *     }
                 */
                "application/json": components["schemas"]["TeamErrorEnvelope"];
            };
        };
        /**
         * @description The user already exists, or is already a member (seen on
         *     the live service; docs/service/envelopes.md).
         */
        TeamConflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TeamErrorEnvelope"];
            };
        };
        /** @description Server failure. */
        TeamServerError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "success": false,
                 *       "error": "Internal server error"
                 *     }
                 */
                "application/json": components["schemas"]["TeamErrorEnvelope"];
            };
        };
        /**
         * @description A failure in the open envelope: `code` is anything but a success code. The open area
         *     usually reports failures with HTTP 200 and the code; an HTTP error status may carry the
         *     same envelope (or no JSON at all).
         */
        OpenError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OpenErrorEnvelope"];
            };
        };
        /** @description Any 2xx acknowledges the delivery. The body is ignored. */
        CallbackAcknowledged: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /**
         * @description Not acknowledged. The SDK's receiver answers 404 for a wrong receiver token and 413 for
         *     an oversized body. Whether and when the service redelivers is not shown.
         */
        CallbackRefused: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listTeamMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The members of the team that owns the API key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamMemberListEnvelope"];
                };
            };
            400: components["responses"]["TeamBadRequest"];
            401: components["responses"]["TeamUnauthorized"];
            500: components["responses"]["TeamServerError"];
        };
    };
    createTeamMember: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMemberInput"];
            };
        };
        responses: {
            /** @description The created member. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedMemberEnvelope"];
                };
            };
            400: components["responses"]["TeamBadRequest"];
            401: components["responses"]["TeamUnauthorized"];
            403: components["responses"]["TeamForbidden"];
            409: components["responses"]["TeamConflict"];
            500: components["responses"]["TeamServerError"];
        };
    };
    inviteTeamMember: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InviteMemberInput"];
            };
        };
        responses: {
            /** @description The invited member. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedMemberEnvelope"];
                };
            };
            400: components["responses"]["TeamBadRequest"];
            401: components["responses"]["TeamUnauthorized"];
            403: components["responses"]["TeamForbidden"];
            /**
             * @description No registered account has this email. The service's documentation only says the user must already
             *     be registered; the status of this failure is not shown (404 is an inference).
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": false,
                     *       "error": "No registered account for anna@acme.com; create the member instead"
                     *     }
                     */
                    "application/json": components["schemas"]["TeamErrorEnvelope"];
                };
            };
            409: components["responses"]["TeamConflict"];
            500: components["responses"]["TeamServerError"];
        };
    };
    impersonateTeamMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description User id of the team member.
                 * @example 1673603133161799680
                 */
                userId: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ImpersonationRequest"];
            };
        };
        responses: {
            /** @description The impersonation login URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImpersonationEnvelope"];
                };
            };
            400: components["responses"]["TeamBadRequest"];
            401: components["responses"]["TeamUnauthorized"];
            403: components["responses"]["TeamForbidden"];
            404: components["responses"]["TeamNotFound"];
            500: components["responses"]["TeamServerError"];
        };
    };
    getUploadCredential: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Temporary upload credentials (an error code may also arrive with HTTP 200). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadCredentialEnvelope"];
                };
            };
            "4XX": components["responses"]["OpenError"];
            default: components["responses"]["OpenError"];
        };
    };
    listOrgSpaces: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's team spaces (an error code may also arrive with HTTP 200). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgInfoEnvelope"];
                };
            };
            "4XX": components["responses"]["OpenError"];
            default: components["responses"]["OpenError"];
        };
    };
    saveMaterials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaterialSaveRequest"];
            };
        };
        responses: {
            /** @description The saved assets (an error code may also arrive with HTTP 200). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaterialSaveEnvelope"];
                };
            };
            "4XX": components["responses"]["OpenError"];
            default: components["responses"]["OpenError"];
        };
    };
    subscribeFolders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FolderSubscribeRequest"];
            };
        };
        responses: {
            /** @description Whether the operation succeeded (an error code may also arrive with HTTP 200). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscribeEnvelope"];
                };
            };
            "4XX": components["responses"]["OpenError"];
            default: components["responses"]["OpenError"];
        };
    };
    listAssetEventTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event type entries, enveloped or bare. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventTypeListResponse"];
                };
            };
            "4XX": components["responses"]["OpenError"];
            default: components["responses"]["OpenError"];
        };
    };
    subscribeAssetEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventSubscribeRequest"];
            };
        };
        responses: {
            /** @description Whether the operation succeeded (an error code may also arrive with HTTP 200). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscribeEnvelope"];
                };
            };
            "4XX": components["responses"]["OpenError"];
            default: components["responses"]["OpenError"];
        };
    };
    folderContentCallback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FolderContentCallback"];
            };
        };
        responses: {
            200: components["responses"]["CallbackAcknowledged"];
            "4XX": components["responses"]["CallbackRefused"];
        };
    };
    materialInboundCompletedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaterialInboundCompletedEvent"];
            };
        };
        responses: {
            200: components["responses"]["CallbackAcknowledged"];
            "4XX": components["responses"]["CallbackRefused"];
        };
    };
    materialAddedToFolderEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaterialAddedToFolderEvent"];
            };
        };
        responses: {
            200: components["responses"]["CallbackAcknowledged"];
            "4XX": components["responses"]["CallbackRefused"];
        };
    };
    materialMetadataUpdatedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaterialMetadataUpdatedEvent"];
            };
        };
        responses: {
            200: components["responses"]["CallbackAcknowledged"];
            "4XX": components["responses"]["CallbackRefused"];
        };
    };
    materialVersionChangedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaterialVersionChangedEvent"];
            };
        };
        responses: {
            200: components["responses"]["CallbackAcknowledged"];
            "4XX": components["responses"]["CallbackRefused"];
        };
    };
    materialDeletedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaterialDeletedEvent"];
            };
        };
        responses: {
            200: components["responses"]["CallbackAcknowledged"];
            "4XX": components["responses"]["CallbackRefused"];
        };
    };
}
