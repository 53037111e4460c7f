/**
 * A generated document for the graph tests (the core suite needs nothing outside the repository): people who work
 * at organisations in cities on projects, so the graph has named entities, relationships inside a sentence, and
 * groups the community detection should find (one per organisation; its paragraphs come together, so a chunk is
 * mostly about one group).
 */

const PEOPLE = [
  ["Ada Lovelace", "Charles Babbage", "Mary Somerville"],
  ["Grace Hopper", "Howard Aiken", "Jean Sammet"],
  ["Alan Turing", "Joan Clarke", "Max Newman"],
];
const ORGS = ["Analytical Society", "Harvard Computation Laboratory", "Bletchley Park"];
const CITIES = ["London", "Cambridge Massachusetts", "Milton Keynes"];
const PROJECTS = ["Difference Engine", "Mark One Calculator", "Colossus Machine"];

export const graphFixture = (paragraphs = 36) =>
  Array.from({ length: paragraphs }, (_, i) => {
    const g = Math.floor((3 * i) / paragraphs);
    const [a, b, c] = PEOPLE[g]!;
    return (
      `${a} joined the ${ORGS[g]} in ${CITIES[g]} in ${1840 + i}. ` +
      `At the ${ORGS[g]}, ${a} worked with ${b} on the ${PROJECTS[g]}. ` +
      `${c} reviewed the ${PROJECTS[g]} and wrote notes on its design for ${b}.` +
      // A surname alone and a misspelling: the duplicates merging should join.
      (i === 1 ? ` Notes by Lovelace describe the ${PROJECTS[g]}.` : "") +
      (i === 2 ? ` Letters from Charles Babage survive in ${CITIES[g]}.` : "")
    );
  }).join("\n\n");
