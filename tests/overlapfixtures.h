// SPDX-License-Identifier: Apache-2.0
#pragma once
// A hand-built store with known failure overlaps (tst_report, tst_pagemodels, tst_pages, tst_cli). Kept out of the
// test sources so moc never reads its raw strings.
//
// Suite "ov": six cases o-1 … o-6 of the schema person {name, age}; gold {"name": "P<i>", "age": <i>}. Four models,
// one run each, answers per case and repeat: c correct, w a wrong age (WV), k the age left out (MK), e errored (a
// timeout: no answer, no vote).
//
//           o-1   o-2   o-3   o-4   o-5   o-6
//   m-a (3) www   wwc   wcc   ccc   wwe   eee     fails o-1, o-2 (2 of 3), o-5 (2 of 2 voting); no answer to o-6
//   m-b (2) ww    wc    ww    cc    we    ww      fails o-1, o-3, o-5 (1 of 1 voting), o-6; o-2 a tie (passed)
//   m-c (1) w     c     k     c     c     w       fails o-1, o-3, o-6
//   m-d (1) w     w     c     c     c     c       fails o-1, o-2
//
// With all four (verdict not correct): o-6 is left out (m-a has no answer); o-1 all four; o-2 {a, d}; o-3 {b, c};
// o-5 {a, b}; o-4 none. Set sizes a 3, b 3, c 2, d 2; union 4; the regions add up to it.
#include "store/resultstore.h"
#include "store/suiteimport.h"
#include "suite/suiteloader.h"

#include <QStringList>

#include <memory>

namespace overlapfixture {

using namespace Qt::StringLiterals;

struct ModelAnswers
{
    const char* model;
    int repeats;
    const char* answers[6]; ///< per case, one letter per repeat
};

inline const std::vector<ModelAnswers>& answers()
{
    static const std::vector<ModelAnswers> table = {
        { "m-a", 3, { "www", "wwc", "wcc", "ccc", "wwe", "eee" } },
        { "m-b", 2, { "ww", "wc", "ww", "cc", "we", "ww" } },
        { "m-c", 1, { "w", "c", "k", "c", "c", "w" } },
        { "m-d", 1, { "w", "w", "c", "c", "c", "c" } },
    };
    return table;
}

inline structscope::SuiteFiles suiteFiles()
{
    structscope::SuiteFiles files;
    files[u"suite.json"_s] = R"({
  "id": "ov", "name": "Overlaps", "version": "1.0.0", "description": "test", "license": "Apache-2.0",
  "schemas": {"person": "schemas/person.json"}, "default_schema": "person",
  "categories": ["people"], "families": ["ladder", "extraction"],
  "prompt": {"system": "Answer with JSON only.", "user": "Extract: {{input}}"}
})";
    files[u"schemas/person.json"_s] = R"({
  "type": "object",
  "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
  "required": ["name"]
})";
    QByteArray cases;
    for (int i = 1; i <= 6; ++i)
        cases += QStringLiteral(
            "{\"id\": \"o-%1\", \"category\": \"people\", \"tier\": \"easy\", \"input\": \"P%1 is %1.\", "
            "\"gold\": {\"name\": \"P%1\", \"age\": %1}}\n")
                     .arg(i)
                     .toUtf8();
    files[u"cases.jsonl"_s] = cases;
    return files;
}

/// The answer text of a letter for case i (1-based).
inline QString answerText(char letter, int i)
{
    if (letter == 'c')
        return u"{\"name\": \"P%1\", \"age\": %1}"_s.arg(i);
    if (letter == 'w')
        return u"{\"name\": \"P%1\", \"age\": %2}"_s.arg(i).arg(i + 50);
    return u"{\"name\": \"P%1\"}"_s.arg(i); // k: the age left out
}

/// Builds the store at `location`; nullptr (with a warning) when anything fails.
inline std::unique_ptr<structscope::ResultStore> makeStore(const QString& location)
{
    using namespace structscope;
    const SuiteLoadResult loaded = loadSuite(suiteFiles());
    if (!loaded.ok()) {
        qWarning() << "overlap suite does not load:" << loaded.problems.value(0).toString();
        return nullptr;
    }
    QString error;
    auto store = ResultStore::open(location, &error);
    if (!store) {
        qWarning().noquote() << error;
        return nullptr;
    }
    const auto imported = store->importSuite(makeSuiteImport(*loaded.suite));
    if (!imported)
        return nullptr;
    const auto cases = store->cases(imported->suite.row);
    if (!cases)
        return nullptr;
    std::map<QString, qint64> caseRows;
    for (const CaseRow& c : cases.value())
        caseRows[c.id] = c.row;
    QList<ResponseRow> responses;
    for (const ModelAnswers& m : answers()) {
        RunRow run;
        run.suiteRow = imported->suite.row;
        run.modelSpec = QString::fromLatin1(m.model);
        run.providerKind = u"import"_s;
        run.strategy = u"P"_s;
        run.repeats = m.repeats;
        const auto created = store->createRun(run);
        if (!created)
            return nullptr;
        for (int i = 1; i <= 6; ++i) {
            const char* letters = m.answers[i - 1];
            for (int repeat = 0; letters[repeat] != 0; ++repeat) {
                ResponseRow r;
                r.runId = created->id;
                r.caseRow = caseRows.at(u"o-%1"_s.arg(i));
                r.repeat = repeat;
                r.requestHash = u"rh-%1-%2-%3"_s.arg(created->id).arg(i).arg(repeat);
                if (letters[repeat] == 'e') {
                    r.httpStatus = 0;
                    r.errorKind = u"timeout"_s;
                } else {
                    r.httpStatus = 200;
                    r.rawText = answerText(letters[repeat], i);
                }
                responses << r;
            }
        }
    }
    if (!store->appendResponses(responses))
        return nullptr;
    return store;
}

} // namespace overlapfixture
