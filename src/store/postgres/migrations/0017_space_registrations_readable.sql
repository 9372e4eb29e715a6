-- A memory space's registration (which organization it belongs to) is read by policy resolution, which
-- caches the answer for every request and may read it through a user's transaction (a write that checks
-- its space's retention): under by_org, a transaction of another organization would see no registration
-- and cache the wrong organization for the space. Registrations hold no user's data, so any transaction
-- may read them; writing one still needs its organization's scope (or every one).
CREATE POLICY read_registrations ON memory_spaces FOR SELECT USING (true);
