// SPDX-License-Identifier: Apache-2.0
// orderbench-gen OUTDIR: writes the generated files of the orderbench suite.
#include "suitewriter.h"

#include <cstdio>
#include <string>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr,
            "usage: orderbench-gen OUTDIR\n  writes suite.json, catalog.json, schemas/order.json "
            "and cases.jsonl of the orderbench suite into OUTDIR\n");
        return 2;
    }
    const std::string error = structscope::orderbench::writeSuiteFiles(argv[1]);
    if (!error.empty()) {
        std::fprintf(stderr, "orderbench-gen: %s\n", error.c_str());
        return 1;
    }
    return 0;
}
