// SPDX-License-Identifier: Apache-2.0
#pragma once
// Fixtures of tst_suite, kept out of the test file because moc cannot read multi-line raw strings.
#include "suite/suiteloader.h"

using namespace Qt::StringLiterals;

namespace structscope {

// A small, clean suite: two schemas, three cases, one example.
inline SuiteFiles goodSuite()
{
    SuiteFiles files;
    files[u"suite.json"_s] = R"({
  "id": "mini", "name": "Mini suite", "version": "1.0.0",
  "description": "test", "license": "Apache-2.0",
  "schemas": {"ticket": "schemas/ticket.json", "person": "schemas/person.json"},
  "default_schema": "ticket",
  "categories": ["support", "contact"],
  "families": ["ladder", "extraction"],
  "prompt": {"system": "Answer with JSON only.", "user": "Extract: {{input}}"},
  "examples": {"ticket": {"input": "Printer broken, urgent.", "output": {"title": "Printer broken", "priority": "high"}}},
  "options": {"array_matching": "ordered", "validate_formats": true}
})";
    files[u"schemas/ticket.json"_s] = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {"title": {"type": "string"}, "priority": {"enum": ["low", "high"]}},
  "required": ["title", "priority"], "additionalProperties": false
})";
    files[u"schemas/person.json"_s] = R"({
  "type": "object",
  "properties": {"name": {"type": "string"}, "age": {"type": ["integer", "null"], "minimum": 0}},
  "required": ["name", "age"]
})";
    files[u"cases.jsonl"_s]
        = R"({"id": "t-1", "category": "support", "tier": "easy", "input": "VPN down", "gold": {"title": "VPN down", "priority": "high"}}
{"id": "t-2", "category": "support", "schema": "ticket", "input": "Mouse squeaks", "question": null, "gold": {"title": "Mouse squeaks", "priority": "low"}, "source_kind": "email"}
{"id": "p-1", "category": "contact", "schema": "person", "input": "Ana, age unknown", "question": "Who?", "gold": {"name": "Ana", "age": null}}
)";
    return files;
}

} // namespace structscope
