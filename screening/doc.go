// Package screening checks people against the lists a real-estate business must screen its
// clients against under the LFPIORPI (issue 53): the UN Security Council Consolidated List and
// the lists the business uploads (the UIF's Lista de Personas Bloqueadas as it receives it). It
// speaks no HTTP and touches no database: postgres/screening_lists.go stores the list versions,
// the worker imports the UN list (jobs.TypeImportUNList).
//
// Reading lists. ParseUNList reads the UN list's published XML (CONSOLIDATED_LIST, INDIVIDUALS/
// INDIVIDUAL and ENTITIES/ENTITY with FIRST_NAME..FOURTH_NAME, NAME_ORIGINAL_SCRIPT,
// INDIVIDUAL_ALIAS with QUALITY and ALIAS_NAME, INDIVIDUAL_DATE_OF_BIRTH as a DATE, a YEAR or
// FROM_YEAR/TO_YEAR). ReadUpload reads a CSV or XLSX (github.com/xuri/excelize/v2) with a
// ColumnMapping chosen on upload, tolerant of a byte-order mark, ; or tab separators,
// Windows-1252, extra columns and dd/mm/aaaa dates; anything malformed refuses the whole file
// with an *UploadError in Spanish that names the row and column. ImportUNList and ImportUpload
// store a parsed list as a new version; an identical file (same SHA-256) adds none.
//
// Matching, and what it takes from OpenSanctions' yente. yente answers a match query in two
// stages: a search index finds candidates, tuned for recall (its documentation recommends
// phonetic and normalised name forms over fuzzy search there), then each candidate is scored
// against the query. Its logic-v1 algorithm is rule-based and explainable: name features give
// a base score (literal match 1.0, phonetic match 0.9, Jaro-Winkler 0.8), and that score is then
// qualified by features that support or contradict it (different birth years or days, a
// different country, a mismatched last name), and it is deliberately conservative when two
// names have very different lengths. We take the same shape, because a compliance officer must
// be able to read why someone was flagged and because one screening must not scan the list:
//   - Candidates: every name and alias of every entry is filed in an Index under the sound keys
//     of its words (accents folded with identity.Fold, particles such as de/la/del and the
//     Arabic article dropped, Cyrillic and Arabic transliterated); a person's words are looked
//     up and only names sharing at least two keys (one for a one-word name) whose best
//     reachable score clears the threshold are scored.
//   - Name score: the words are aligned one to one, in any order: the same word counts 1, a
//     word that sounds the same in Spanish ("Gonsales", "Kintero") 0.95, a spelling slip in a
//     word of six letters or more that starts alike its Jaro-Winkler similarity (from 0.90, as
//     identity does for typed names), an Arabic-script word with the same consonants 0.85. How
//     much of the shorter name is found weighs 0.75 and of the longer 0.25, so a missing middle
//     name or second surname costs little but two names sharing one word never pass 0.5
//     (yente's caution with names of different lengths). A UN alias of quality Low loses 0.1.
//   - Qualifiers: the birth date breaks ties between namesakes, as yente's dob features do: the
//     same day +0.08, a year or range that holds the person's year +0.03, another day of the
//     same year -0.08, no listed year matching -0.2, unknown on either side 0. When the list
//     separates surnames and none is the person's, -0.15 (yente's last-name mismatch).
//   - Each Candidate carries its score (0..1) and Spanish reasons naming which words matched
//     and how, the alias or original script used, what is missing, and the birth-date finding.
//
// Not taken: yente's regression models (they need labelled training data we do not have),
// metaphone (built for English; our key follows Spanish spelling), and the country mismatch:
// the UN list writes nationalities as English free text while documents give ISO codes, so the
// nationality is shown, not scored. An uploaded list's RFC or CURP is matched exactly by keyed
// hash in postgres (ScreeningEntriesWithIdentifier), apart from the name score. The weights are
// DefaultWeights; the threshold that makes a candidate a possible hit is the caller's.
//
// Transliteration: neither golang.org/x/text nor a maintained Go library transliterates
// scripts, so normalize.go has a small documented table: Cyrillic (Russian and Ukrainian, as
// ICAO 9303 romanises passports) and Arabic (letters to consonants; short vowels are not
// written, so such names compare by consonant skeleton: "محمد", "Mohammed" and "Muhammad" all
// read "md").
//
// Limits, on purpose: a name that differs from the person's in two words that do not sound
// alike is not retrieved; a slip in the first letter counts only when it sounds the same;
// entities are listed and stored but never compared with people.
//
// Personal data: an uploaded row's RFC or CURP never enters the entry's JSON, an error or a log.
package screening
