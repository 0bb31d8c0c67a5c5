// The resources area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component } from '../../openapi/responses.ts';
import { Resource } from '../../openapi/components/catalogue.ts';

export const UpdatedResourceList = component('UpdatedResourceList', v.object({
  resources: v.array(Resource),
}));
