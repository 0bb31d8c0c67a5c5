// The groups area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component } from '../../openapi/responses.ts';
import { Group } from '../../openapi/components/catalogue.ts';

export const UpdatedGroupList = component('UpdatedGroupList', v.object({
  groups: v.array(Group),
}));
