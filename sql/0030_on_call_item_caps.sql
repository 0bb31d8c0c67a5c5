-- An item the rotation approved inside a request that also waits for reviewers (docs/on-call.md, "Approval
-- by rotation"): when the grant comes, that item's access ends no later than the shift that approved it.
-- Conventions as in 0001.

-- The end of the requester's shift when the rotation approved this item (NULL: not approved by the
-- rotation), and why, in words ("approved because you are on call for Payments primary until 18:00 UTC").
ALTER TABLE request_items ADD COLUMN on_call_until TEXT;
ALTER TABLE request_items ADD COLUMN approval_reason TEXT;
