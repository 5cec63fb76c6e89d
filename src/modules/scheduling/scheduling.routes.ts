import { NotFound } from '../../platform/errors.ts';
import { jsonFields, optionalBoolean, optionalString } from '../../platform/rest/input.ts';
import { ok, type AnyRestRoute, TENANT } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

export const schedulingRoutes: AnyRestRoute[] = [
  {
    method: 'GET',
    path: `${TENANT}/scheduling/schedules`,
    family: 'v1',
    operation: 'ListSchedules',
    variables: ({ params, query }) => ({
      tenantId: params.tenantId,
      storeId: optionalString(query, 'storeId'),
      status: optionalString(query, 'status'),
    }),
    respond: (data) => ok(200, data),
  },
  {
    method: 'GET',
    path: `${TENANT}/scheduling/schedules/{scheduleId}`,
    family: 'v1',
    operation: 'GetSchedule',
    variables: ({ params }) => ({ tenantId: params.tenantId, id: params.scheduleId }),
    respond: (data) => {
      if (!data.schedule) throw new NotFound('schedule');
      return ok(200, data);
    },
  },
  {
    method: 'GET',
    path: `${TENANT}/scheduling/employees`,
    family: 'v1',
    operation: 'ListEmployees',
    variables: ({ params, query }) => ({
      tenantId: params.tenantId,
      storeId: optionalString(query, 'storeId'),
      includeInactive: optionalBoolean(query, 'includeInactive'),
    }),
    respond: (data) => ok(200, data),
  },
  {
    method: 'GET',
    path: `${TENANT}/scheduling/time-off`,
    family: 'v1',
    operation: 'ListTimeOffRequests',
    variables: ({ params, query }) => ({
      tenantId: params.tenantId,
      status: optionalString(query, 'status'),
      employeeId: optionalString(query, 'employeeId'),
    }),
    respond: (data) => ok(200, data),
  },
  {
    method: 'POST',
    path: `${TENANT}/scheduling/time-off`,
    family: 'v1',
    operation: 'CreateTimeOffRequest',
    variables: ({ params, body }) => ({ tenantId: params.tenantId, ...jsonFields(body, ['employeeId', 'startDate', 'endDate'], ['reason']) }),
    respond: (data) => ok(201, data),
  },
  {
    method: 'GET',
    path: `${TENANT}/scheduling/labor-report`,
    family: 'v1',
    operation: 'GetLaborReport',
    variables: ({ params, query }) => ({
      tenantId: params.tenantId,
      storeId: optionalString(query, 'storeId'),
      startDate: optionalString(query, 'startDate'),
      endDate: optionalString(query, 'endDate'),
    }),
    respond: (data) => ok(200, data.laborReport),
  },
];
