// Package identity knows what an official Mexican ID says about a person and how to check it
// against what the person typed. It speaks no HTTP and touches no database.
//
// Names. The typed name and the document's name are compared word by word after folding
// both: accents dropped, upper and lower case made equal, ñ read as n, punctuation read as a
// space. Particles (de, del, la, las, los, y, van, von, ...) are set aside and checked on their
// own. The outcome is
//   - Match when every word the person typed is on the document and the typed words include
//     at least one given name and the first surname. Leaving out a second given name, the
//     second surname or the particles is fine: on a match the profile takes the document's
//     name anyway.
//   - Near when the matcher cannot decide: a word of six letters or more that is one letter
//     away from the document's (an OCR or typing slip; shorter words such as Mario and María
//     are different names), words written together or apart ("Delagarza",
//     "Mari Carmen"), particles that differ from the document's, or a given name and the
//     second surname without the first. A person decides these.
//   - Mismatch when a typed word is not on the document at all, or too little of the
//     document's name was typed to say who it is.
//
// When the document gives only a full name, both readings are tried, given names first and
// surnames first (the INE prints the surnames first), and the better one is kept.
// NameResult.Document is the document's name as read; its Display method writes it in proper
// case, given names first ("María José López Hernández"), for the profile after a match.
//
// CURP. CheckCURP validates the format, the check digit (RENAPO's algorithm: the 18th
// character from the first 17) and that the CURP agrees with the document's birth date, sex
// and state of birth; each disagreement is named. CURPMatchesName adds advice for a reviewer:
// whether the CURP's letters are those the name gives. ExampleCURP builds a valid CURP for
// tests and the development stand-in.
//
// Dates. AgeOn counts whole years on calendar dates; CheckDocumentDates says whether the ID
// had expired on the day of the check and whether the person was under 18; ValidUntil ends a
// validation no later than the ID's expiry.
//
// A CURP is personal data: this package never logs it and never puts it in an error.
package identity
