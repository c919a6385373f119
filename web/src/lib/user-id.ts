/** The user id as the API expects it in a JSON body: a number when numeric (SPEC §3 id is a number). */
export function toApiUserId(id: string): number | string {
  return /^\d+$/.test(id) ? Number(id) : id
}
