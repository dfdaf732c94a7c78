// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>

namespace structscope {

/// A located problem in user input: file, line/column (JSONL, 1-based, 0 = unknown),
/// JSON pointer inside the document, and a message a person can act on.
struct Problem
{
    QString file;
    int line = 0;
    int column = 0;
    QString pointer;
    QString message;
    bool warning = false; ///< reported, but does not refuse the suite

    /// "cases.jsonl:12:5: /gold/amount: value 3 is greater than the maximum 2".
    QString toString() const;
};

using Problems = QList<Problem>;

/// True when at least one problem is an error (not a warning).
bool hasErrors(const Problems& problems);

} // namespace structscope
