// The closed sets of values the API's response shapes use (types, levels, providers), as the reference spells them:
// the one shared place for response pieces besides the primitives in responses.ts; every other shape lives with its area.
// Valibot schemas; wire facts (field names, types, formats, enums) agree with the reference, and a field Gatehouse always sends is required. See docs/openapi.md.
import * as v from 'valibot';
import { APP_TYPES } from '../modules/apps/schemas.ts';
import { GROUP_TYPES } from '../modules/groups/kinds.ts';
import { TICKETING_PROVIDERS } from '../modules/requests/schemas.ts';
import { RESOURCE_TYPES } from '../modules/resources/kinds.ts';
import { HR_IDP_STATUSES, THIRD_PARTY_PROVIDERS } from '../modules/users/schemas.ts';
import { component } from './responses.ts';

export const EntityTypeEnum = component('EntityTypeEnum', v.picklist(['GROUP', 'RESOURCE', 'USER']));

export const ApiAccessLevelEnum = component('ApiAccessLevelEnum', v.picklist(['READ_ONLY', 'FULL_ACCESS']));

export const AppTypeEnum = component('AppTypeEnum', v.picklist(APP_TYPES));

export const AppValidationSeverityEnum = component('AppValidationSeverityEnum', v.picklist(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']));

export const AppValidationStatusEnum = component('AppValidationStatusEnum', v.picklist(['SUCCESS', 'FAILED']));

export const GroupTypeEnum = component('GroupTypeEnum', v.picklist(GROUP_TYPES));

export const RiskSensitivityEnum = component('RiskSensitivityEnum', v.picklist(['UNKNOWN', 'CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'NONE']));

export const ThirdPartyProviderEnum = component('ThirdPartyProviderEnum', v.picklist(THIRD_PARTY_PROVIDERS));

export const ResourceTypeEnum = component('ResourceTypeEnum', v.picklist(RESOURCE_TYPES));

export const TicketingProviderEnum = component('TicketingProviderEnum', v.picklist(TICKETING_PROVIDERS));

export const RDSEngineEnum = component('RDSEngineEnum', v.picklist(['MYSQL', 'POSTGRESQL']));

export const UserHrIdpStatusEnum = component('UserHrIdpStatusEnum', v.picklist(HR_IDP_STATUSES));

export const PropagationStatusEnum = component('PropagationStatusEnum', v.picklist(['SUCCESS', 'ERR_REMOTE_INTERNAL_ERROR', 'ERR_REMOTE_USER_NOT_FOUND', 'ERR_REMOTE_USER_NOT_LINKED', 'ERR_REMOTE_RESOURCE_NOT_FOUND', 'ERR_REMOTE_THROTTLE', 'ERR_NOT_AUTHORIZED_TO_QUERY_RESOURCE', 'ERR_REMOTE_PROVISIONING_VIA_IDP_FAILED', 'ERR_IDP_EMAIL_UPDATE_CONFLICT', 'ERR_TIMEOUT', 'ERR_UNKNOWN', 'ERR_OPAL_INTERNAL_ERROR', 'ERR_ORG_READ_ONLY', 'ERR_OPERATION_UNSUPPORTED', 'PENDING', 'PENDING_MANUAL_PROPAGATION', 'PENDING_TICKET_CREATION', 'ERR_TICKET_CREATION_SKIPPED', 'ERR_DRY_RUN_MODE_ENABLED', 'ERR_HR_IDP_PROVIDER_NOT_LINKED', 'ERR_REMOTE_UNRECOVERABLE_ERROR']));
