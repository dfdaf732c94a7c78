// SPDX-License-Identifier: Apache-2.0
#include "widgets/launchdialog.h"

#include "widgets/modelprofileeditor.h"

#include "analysis/metricformat.h"
#include "models/runsmodel.h"
#include "sim/simprofile.h"
#include "suite/suiteloader.h"
#include "suite/suitelocator.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr int kSpecRole = Qt::UserRole; ///< model items: the spec text (SpecText::Full)
constexpr int kDirRole = Qt::UserRole; ///< suite items: the folder
constexpr int kMaxGlobalConcurrency = 256;
constexpr int kProblemsShown = 5;

QString specText(const ModelSpec& spec)
{
    return formatModelSpec(spec, SpecText::Full);
}

QString modelItemText(const ModelSpec& spec)
{
    if (spec.isSimulated())
        return displayModelName(spec.label(), true);
    QString text = spec.label() + u" @ "_s + spec.baseUrl;
    if (!spec.keyEnv.isEmpty())
        text += u"  ("_s + QObject::tr("key from %1").arg(spec.keyEnv) + u')';
    return text;
}

QString problemsText(const Problems& problems, const QString& dir)
{
    QStringList lines;
    for (const Problem& p : problems) {
        if (lines.size() == kProblemsShown) {
            lines << QObject::tr("… and %1 more").arg(problems.size() - kProblemsShown);
            break;
        }
        lines << p.toString();
    }
    lines << QObject::tr("Run 'structscope check --suite %1' for the full list.").arg(dir);
    return lines.join(u'\n');
}

} // namespace

/// What a background job found: suites loaded (or their problems) and the estimate of the choices.
struct LaunchDialog::JobResult
{
    quint64 generation = 0;
    QHash<QString, SuitePtr> loaded;
    QHash<QString, QString> failed;
    std::optional<CostEstimate> estimate;
    QList<std::pair<QString, CostEstimateLine>> lines; ///< (suite id, line)
};

LaunchDialog::LaunchDialog(QWidget* parent)
    : QDialog(parent)
    , m_suiteList(new QListWidget(this))
    , m_modelList(new QListWidget(this))
    , m_editor(new ModelProfileEditor(this))
    , m_removeProfile(new QPushButton(tr("Remove"), this))
    , m_repeats(new QSpinBox(this))
    , m_concurrency(new QSpinBox(this))
    , m_insecureKey(new QCheckBox(tr("Send keys over plain http to other hosts"), this))
    , m_estimateLabel(new QLabel(this))
    , m_estimateTable(new QTreeWidget(this))
    , m_problem(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
{
    setObjectName(u"launchDialog"_s);
    setWindowTitle(tr("New Run"));
    m_pool.setMaxThreadCount(1);
    m_prices = PriceTable::loadDefault(&m_priceWarning);

    m_start = m_buttons->addButton(tr("Start Run"), QDialogButtonBox::AcceptRole);
    m_start->setObjectName(u"startButton"_s);
    m_start->setDefault(true);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &LaunchDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &LaunchDialog::reject);
    m_problem->setObjectName(u"problemLabel"_s);
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText); // suite problems quote the suite's files
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(makeSuitesBox(), 2);
    leftLayout->addWidget(makeModelsBox(), 3);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(makeSettingsBox());
    rightLayout->addWidget(makeEstimateBox(), 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(150);
    connect(&m_refreshTimer, &QTimer::timeout, this, &LaunchDialog::refresh);
    connect(m_editor, &ModelProfileEditor::connectionTested, this, &LaunchDialog::connectionTested);
    connect(m_editor, &ModelProfileEditor::addRequested, this, [this](const ModelSpec& spec) {
        QString error;
        if (!addModelProfile(spec, &error))
            m_editor->setMessage(tr("Cannot add the profile: %1").arg(error));
    });

    for (const QString& name : builtInSuiteNames()) {
        if (const QString dir = resolveSuitePath(name); !dir.isEmpty())
            addSuiteItem(dir, true);
    }
    for (const SimProfile& profile : simProfiles()) {
        ModelSpec spec;
        spec.kind = ProviderKind::Sim;
        spec.model = profile.name;
        QListWidgetItem* item = addModelItem(spec);
        item->setToolTip(tr("Simulated model (no network, no cost): %1").arg(profile.description));
    }
    updateState();
    resize(1060, 720);
    scheduleRefresh();
}

LaunchDialog::~LaunchDialog()
{
    m_pool.waitForDone();
}

// ---- layout ------------------------------------------------------------------------------------

QWidget* LaunchDialog::makeSuitesBox()
{
    auto* box = new QGroupBox(tr("Suites"), this);
    m_suiteList->setObjectName(u"suiteList"_s);
    auto* add = new QPushButton(tr("Add Suite Folder…"), box);
    add->setObjectName(u"addSuiteButton"_s);
    add->setToolTip(tr("A folder with a suite.json (see the README's suite format)"));
    connect(add, &QPushButton::clicked, this, &LaunchDialog::chooseSuiteFolder);
    connect(m_suiteList, &QListWidget::itemChanged, this, [this] {
        m_startError.clear();
        scheduleRefresh();
    });
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_suiteList, 1);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(add);
    layout->addLayout(row);
    return box;
}

QWidget* LaunchDialog::makeModelsBox()
{
    auto* box = new QGroupBox(tr("Models"), this);
    m_modelList->setObjectName(u"modelList"_s);
    connect(m_modelList, &QListWidget::itemChanged, this, [this] {
        m_startError.clear();
        scheduleRefresh();
    });
    connect(m_modelList, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item) {
            if (const auto spec = parseModelSpec(item->data(kSpecRole).toString()))
                m_editor->setProfile(*spec);
        }
        updateState();
    });

    m_removeProfile->setObjectName(u"removeProfileButton"_s);
    connect(m_removeProfile, &QPushButton::clicked, this, &LaunchDialog::removeSelectedProfile);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_removeProfile);

    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_modelList, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_editor);
    return box;
}

QWidget* LaunchDialog::makeSettingsBox()
{
    auto* box = new QGroupBox(tr("Strategies and sampling"), this);
    auto* strategies = new QGridLayout;
    int i = 0;
    for (const Strategy s : allStrategies()) {
        auto* check = new QCheckBox(strategyName(s), box);
        check->setObjectName(u"strategy:"_s + strategyName(s));
        check->setChecked(true);
        QStringList how;
        how << (strategyPutsSchemaInPrompt(s) ? tr("schema in the prompt") : tr("no schema in the prompt"));
        if (strategyUsesJsonMode(s))
            how << tr("JSON mode");
        if (strategyUsesSchemaFormat(s))
            how << tr("schema as the response format");
        check->setToolTip(how.join(u", "_s));
        connect(check, &QCheckBox::toggled, this, [this] {
            m_startError.clear();
            scheduleRefresh();
        });
        strategies->addWidget(check, i / 3, i % 3);
        m_strategyBoxes << check;
        ++i;
    }
    m_repeats->setObjectName(u"repeatsSpin"_s);
    m_repeats->setRange(1, 100);
    m_repeats->setToolTip(tr("Samples per case (repeat i of a case is answered once per run)"));
    m_concurrency->setObjectName(u"concurrencySpin"_s);
    m_concurrency->setRange(1, 64);
    m_concurrency->setValue(RunnerOptions {}.perModelConcurrency);
    m_concurrency->setToolTip(tr("Requests in flight per model endpoint (lowered on HTTP 429 and recovered slowly)"));
    connect(m_repeats, &QSpinBox::valueChanged, this, &LaunchDialog::scheduleRefresh);
    connect(m_concurrency, &QSpinBox::valueChanged, this, &LaunchDialog::updateState);
    m_insecureKey->setObjectName(u"insecureKeyCheck"_s);
    m_insecureKey->setToolTip(tr("Keys and $VAR headers go over plain http only to this computer (loopback) "
                                 "unless this is ticked: on any other network anyone on the way can read them"));
    connect(m_insecureKey, &QCheckBox::toggled, this, [this](bool allow) {
        m_editor->setAllowInsecureKey(allow);
        updateState();
    });
    auto* form = new QFormLayout;
    form->addRow(tr("Repeats:"), m_repeats);
    form->addRow(tr("Concurrency per model:"), m_concurrency);
    form->addRow(QString(), m_insecureKey);
    auto* layout = new QVBoxLayout(box);
    layout->addLayout(strategies);
    layout->addLayout(form);
    return box;
}

QWidget* LaunchDialog::makeEstimateBox()
{
    auto* box = new QGroupBox(tr("Cost estimate"), this);
    m_estimateLabel->setObjectName(u"estimateLabel"_s);
    m_estimateLabel->setWordWrap(true);
    m_estimateLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_estimateTable->setObjectName(u"estimateTable"_s);
    m_estimateTable->setRootIsDecorated(false);
    m_estimateTable->setHeaderLabels(
        { tr("Suite"), tr("Model"), tr("Strategy"), tr("Requests"), tr("In"), tr("Out"), tr("Cost") });
    // Numbers whole; the model name gives way (elided) when the dialog is narrow.
    m_estimateTable->header()->setStretchLastSection(false);
    m_estimateTable->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_estimateTable->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_estimateTable->headerItem()->setToolTip(4, tr("Estimated tokens in"));
    m_estimateTable->headerItem()->setToolTip(5, tr("Estimated tokens out"));
    auto* note = new QLabel(tr("Tokens are estimated (4 bytes a token); output from the gold answers. "
                               "Prices: %1 if it exists, else the built-in table.")
                                .arg(QDir::toNativeSeparators(PriceTable::userPath())),
        box);
    note->setWordWrap(true);
    note->setEnabled(false);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_estimateLabel);
    layout->addWidget(m_estimateTable, 1);
    layout->addWidget(note);
    return box;
}

// ---- suites ------------------------------------------------------------------------------------

QListWidgetItem* LaunchDialog::addSuiteItem(const QString& dir, bool builtIn)
{
    const QString clean = QDir::cleanPath(dir);
    for (int i = 0; i < m_suiteList->count(); ++i) {
        if (m_suiteList->item(i)->data(kDirRole).toString() == clean)
            return m_suiteList->item(i);
    }
    const QSignalBlocker block(m_suiteList);
    auto* item = new QListWidgetItem(QFileInfo(clean).fileName(), m_suiteList);
    item->setData(kDirRole, clean);
    item->setData(Qt::UserRole + 1, builtIn);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    item->setCheckState(Qt::Unchecked);
    updateSuiteItem(item);
    return item;
}

void LaunchDialog::updateSuiteItem(QListWidgetItem* item)
{
    const QString dir = item->data(kDirRole).toString();
    const bool builtIn = item->data(Qt::UserRole + 1).toBool();
    const QSignalBlocker block(m_suiteList);
    if (const SuitePtr suite = m_suites.value(dir)) {
        item->setText(tr("%1 — %2 (%3 cases)").arg(suite->id, suite->name, QString::number(suite->cases.size()))
            + (builtIn ? u"  · "_s + tr("built-in") : QString()));
        item->setToolTip(tr("%1, version %2\n%3").arg(suite->name, suite->version, QDir::toNativeSeparators(dir)));
        item->setFlags(item->flags() | Qt::ItemIsEnabled);
    } else if (m_suiteProblems.contains(dir)) {
        item->setText(tr("%1 — does not load").arg(QFileInfo(dir).fileName()));
        item->setToolTip(m_suiteProblems.value(dir));
        item->setCheckState(Qt::Unchecked);
        item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
    } else {
        item->setText(tr("%1 — loading…").arg(QFileInfo(dir).fileName()));
        item->setToolTip(QDir::toNativeSeparators(dir));
    }
}

void LaunchDialog::addSuiteFolders(const QStringList& dirs)
{
    for (const QString& dir : dirs) {
        if (QFileInfo::exists(dir + u"/suite.json"_s))
            addSuiteItem(dir, false);
    }
    scheduleRefresh();
}

bool LaunchDialog::addSuiteFolder(const QString& dir, QString* error)
{
    if (!QFileInfo::exists(dir + u"/suite.json"_s)) {
        const QString message = tr("%1 holds no suite.json: choose a suite folder.").arg(QDir::toNativeSeparators(dir));
        if (error)
            *error = message;
        m_problem->setText(message);
        return false;
    }
    QListWidgetItem* item = addSuiteItem(dir, false);
    const QString clean = item->data(kDirRole).toString();
    if (!m_addedFolders.contains(clean))
        m_addedFolders << clean;
    item->setCheckState(Qt::Checked);
    m_suiteList->setCurrentItem(item);
    scheduleRefresh();
    return true;
}

void LaunchDialog::chooseSuiteFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Add Suite Folder"));
    if (!dir.isEmpty())
        addSuiteFolder(dir);
}

QStringList LaunchDialog::listedSuiteFolders() const
{
    QStringList dirs;
    for (int i = 0; i < m_suiteList->count(); ++i)
        dirs << m_suiteList->item(i)->data(kDirRole).toString();
    return dirs;
}

void LaunchDialog::setSelectedSuites(const QStringList& dirs)
{
    QStringList clean;
    for (const QString& dir : dirs)
        clean << QDir::cleanPath(dir);
    for (int i = 0; i < m_suiteList->count(); ++i) {
        QListWidgetItem* item = m_suiteList->item(i);
        item->setCheckState(clean.contains(item->data(kDirRole).toString()) && (item->flags() & Qt::ItemIsEnabled)
                ? Qt::Checked
                : Qt::Unchecked);
    }
    scheduleRefresh();
}

QStringList LaunchDialog::selectedSuites() const
{
    QStringList dirs;
    for (int i = 0; i < m_suiteList->count(); ++i) {
        if (m_suiteList->item(i)->checkState() == Qt::Checked)
            dirs << m_suiteList->item(i)->data(kDirRole).toString();
    }
    return dirs;
}

// ---- models ------------------------------------------------------------------------------------

QListWidgetItem* LaunchDialog::findModelItem(const ModelSpec& spec) const
{
    const QString text = specText(spec);
    for (int i = 0; i < m_modelList->count(); ++i) {
        if (m_modelList->item(i)->data(kSpecRole).toString() == text)
            return m_modelList->item(i);
    }
    return nullptr;
}

QListWidgetItem* LaunchDialog::addModelItem(const ModelSpec& spec)
{
    if (QListWidgetItem* existing = findModelItem(spec))
        return existing;
    const QSignalBlocker block(m_modelList);
    auto* item = new QListWidgetItem(modelItemText(spec), m_modelList);
    item->setData(kSpecRole, specText(spec));
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    item->setCheckState(Qt::Unchecked);
    if (!spec.isSimulated())
        item->setToolTip(specText(spec));
    return item;
}

void LaunchDialog::setModelProfiles(const QList<ModelSpec>& profiles)
{
    for (const ModelSpec& spec : profiles) {
        if (!spec.isSimulated())
            addModelItem(spec);
    }
}

QList<ModelSpec> LaunchDialog::modelProfiles() const
{
    QList<ModelSpec> profiles;
    for (int i = 0; i < m_modelList->count(); ++i) {
        const auto spec = parseModelSpec(m_modelList->item(i)->data(kSpecRole).toString());
        if (spec && !spec->isSimulated())
            profiles << *spec;
    }
    return profiles;
}

bool LaunchDialog::addModelProfile(const ModelSpec& spec, QString* error)
{
    QString problem;
    const auto checked = parseModelSpec(specText(spec), &problem);
    if (!checked || (checked->isSimulated() && !findSimProfile(checked->model))) {
        if (error)
            *error = checked ? tr("there is no simulated model '%1'").arg(checked->model) : problem;
        return false;
    }
    QListWidgetItem* item = addModelItem(*checked);
    item->setCheckState(Qt::Checked);
    m_modelList->setCurrentItem(item);
    scheduleRefresh();
    return true;
}

void LaunchDialog::setSelectedModels(const QList<ModelSpec>& specs)
{
    {
        const QSignalBlocker block(m_modelList);
        for (int i = 0; i < m_modelList->count(); ++i)
            m_modelList->item(i)->setCheckState(Qt::Unchecked);
    }
    for (const ModelSpec& spec : specs)
        addModelProfile(spec);
    scheduleRefresh();
}

QList<ModelSpec> LaunchDialog::selectedModels() const
{
    QList<ModelSpec> specs;
    for (int i = 0; i < m_modelList->count(); ++i) {
        if (m_modelList->item(i)->checkState() != Qt::Checked)
            continue;
        if (const auto spec = parseModelSpec(m_modelList->item(i)->data(kSpecRole).toString()))
            specs << *spec;
    }
    return specs;
}

void LaunchDialog::removeSelectedProfile()
{
    QListWidgetItem* item = m_modelList->currentItem();
    const auto spec = item ? parseModelSpec(item->data(kSpecRole).toString()) : std::nullopt;
    if (!spec || spec->isSimulated())
        return;
    delete item;
    scheduleRefresh();
    updateState();
}

void LaunchDialog::editProfile(const ModelSpec& spec)
{
    m_editor->setProfile(spec);
}

void LaunchDialog::testConnection()
{
    m_editor->testConnection();
}

QString LaunchDialog::connectionText() const
{
    return m_editor->connectionText();
}

bool LaunchDialog::isTestingConnection() const
{
    return m_editor->isTesting();
}

// ---- strategies and sampling -------------------------------------------------------------------

void LaunchDialog::setSelectedStrategies(const QList<Strategy>& strategies)
{
    for (int i = 0; i < m_strategyBoxes.size(); ++i)
        m_strategyBoxes[i]->setChecked(strategies.contains(allStrategies().at(i)));
}

QList<Strategy> LaunchDialog::selectedStrategies() const
{
    QList<Strategy> out;
    for (int i = 0; i < m_strategyBoxes.size(); ++i) {
        if (m_strategyBoxes[i]->isChecked())
            out << allStrategies().at(i);
    }
    return out;
}

void LaunchDialog::setRepeats(int repeats)
{
    m_repeats->setValue(repeats);
}

int LaunchDialog::repeats() const
{
    return m_repeats->value();
}

void LaunchDialog::setConcurrency(int perModel)
{
    m_concurrency->setValue(perModel);
}

int LaunchDialog::concurrency() const
{
    return m_concurrency->value();
}

void LaunchDialog::setPriceTable(const PriceTable& prices)
{
    m_prices = prices;
    m_priceWarning.clear();
    scheduleRefresh();
}

// ---- background work: suites and the estimate -------------------------------------------------

void LaunchDialog::scheduleRefresh()
{
    m_refreshTimer.start();
    updateState();
}

void LaunchDialog::refresh()
{
    const quint64 generation = ++m_generation;
    QStringList toLoad;
    for (const QString& dir : listedSuiteFolders()) {
        if (!m_suites.contains(dir) && !m_suiteProblems.contains(dir))
            toLoad << dir;
    }
    const QStringList selected = selectedSuites();
    const QHash<QString, SuitePtr> known = m_suites;
    const QList<ModelSpec> models = selectedModels();
    const QList<Strategy> strategies = selectedStrategies();
    const int repeats = m_repeats->value();
    const PriceTable prices = m_prices;
    ++m_jobsRunning;
    updateState();
    QtConcurrent::run(&m_pool, [=] {
        JobResult result;
        result.generation = generation;
        for (const QString& dir : toLoad) {
            const SuiteLoadResult loaded = loadSuiteDir(dir);
            if (loaded.ok())
                result.loaded.insert(dir, loaded.suite);
            else
                result.failed.insert(dir, problemsText(loaded.problems, dir));
        }
        if (selected.isEmpty() || models.isEmpty() || strategies.isEmpty())
            return result;
        CostEstimate total;
        for (const QString& dir : selected) {
            const SuitePtr suite = known.value(dir, result.loaded.value(dir));
            if (!suite)
                continue;
            const CostEstimate one = estimateCost(*suite, models, strategies, repeats, prices);
            for (const CostEstimateLine& line : one.lines)
                result.lines.append({ suite->id, line });
            total.lines += one.lines;
            total.total += one.total;
            for (const QString& model : one.unpriced) {
                if (!total.unpriced.contains(model))
                    total.unpriced << model;
            }
        }
        result.estimate = total;
        return result;
    }).then(this, [this](const JobResult& result) {
        --m_jobsRunning;
        applyJob(result);
    });
}

void LaunchDialog::applyJob(const JobResult& result)
{
    // Loaded suites are kept whatever the generation: they do not depend on the choices.
    for (auto it = result.loaded.cbegin(); it != result.loaded.cend(); ++it)
        m_suites.insert(it.key(), it.value());
    for (auto it = result.failed.cbegin(); it != result.failed.cend(); ++it)
        m_suiteProblems.insert(it.key(), it.value());
    for (int i = 0; i < m_suiteList->count(); ++i)
        updateSuiteItem(m_suiteList->item(i));
    if (result.generation == m_generation) {
        m_estimate = result.estimate;
        m_estimateTable->clear();
        for (const auto& [suiteId, line] : result.lines) {
            auto* item = new QTreeWidgetItem(m_estimateTable);
            const auto spec = parseModelSpec(line.model);
            item->setText(0, suiteId);
            item->setText(1, displayModelName(line.model, spec && spec->isSimulated()));
            item->setText(2, line.strategy);
            item->setText(3, QString::number(line.requests));
            item->setText(4, u"~"_s + QString::number(line.tokensIn));
            item->setText(5, u"~"_s + QString::number(line.tokensOut));
            item->setText(6, line.cost ? RunsModel::costText(line.cost) : tr("no price"));
            for (int column = 3; column <= 6; ++column)
                item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
        }
    }
    showEstimate();
    updateState();
    if (result.generation == m_generation && !m_refreshTimer.isActive())
        Q_EMIT estimateUpdated();
}

QString LaunchDialog::estimateText() const
{
    return m_estimateLabel->text();
}

void LaunchDialog::showEstimate()
{
    QString error;
    const bool complete = !plans(&error).isEmpty();
    if (!complete && !isBusy()) {
        m_estimateLabel->setText(error);
        return;
    }
    if (!m_estimate || isBusy()) {
        m_estimateLabel->setText(tr("Estimating…"));
        return;
    }
    qint64 requests = 0;
    qint64 in = 0;
    qint64 out = 0;
    for (const CostEstimateLine& line : m_estimate->lines) {
        requests += line.requests;
        in += line.tokensIn;
        out += line.tokensOut;
    }
    QString text = tr("%1 requests · ~%2 tokens in · ~%3 out")
                       .arg(QString::number(requests), QString::number(in), QString::number(out));
    const bool anyPriced = m_estimate->unpriced.size() < m_estimate->lines.size();
    if (anyPriced)
        text += u" · ~"_s + RunsModel::costText(m_estimate->total);
    if (!m_estimate->unpriced.isEmpty())
        text += u"\n"_s
            + (anyPriced ? tr("No price for %1 (not counted).") : tr("Cost unknown: no price for %1."))
                  .arg(m_estimate->unpriced.join(u", "_s));
    if (!m_priceWarning.isEmpty())
        text += u"\n"_s + m_priceWarning;
    m_estimateLabel->setText(text);
}

bool LaunchDialog::isBusy() const
{
    return m_jobsRunning > 0 || m_refreshTimer.isActive();
}

QList<RunPlan> LaunchDialog::plans(QString* error) const
{
    auto refuse = [error](const QString& message) {
        if (error)
            *error = message;
        return QList<RunPlan>();
    };
    const QStringList suites = selectedSuites();
    const QList<ModelSpec> models = selectedModels();
    const QList<Strategy> strategies = selectedStrategies();
    if (suites.isEmpty())
        return refuse(tr("Choose at least one suite."));
    if (models.isEmpty())
        return refuse(tr("Choose at least one model (tick it in the list)."));
    if (strategies.isEmpty())
        return refuse(tr("Choose at least one strategy."));
    QStringList endpoints;
    for (const ModelSpec& spec : models) {
        if (!endpoints.contains(spec.endpointKey()))
            endpoints << spec.endpointKey();
        if (const QString problem = insecureKeyProblem(spec, m_insecureKey->isChecked()); !problem.isEmpty())
            return refuse(tr("%1. Here: tick \"%2\" to send it anyway.").arg(problem, m_insecureKey->text()));
    }
    RunnerOptions options;
    options.perModelConcurrency = m_concurrency->value();
    options.allowInsecureKey = m_insecureKey->isChecked();
    options.globalConcurrency
        = std::min(kMaxGlobalConcurrency, options.perModelConcurrency * int(std::max<qsizetype>(1, endpoints.size())));
    QList<RunPlan> out;
    for (const QString& dir : suites) {
        const SuitePtr suite = m_suites.value(dir);
        if (!suite) {
            if (m_suiteProblems.contains(dir))
                return refuse(tr("The suite in %1 does not load:\n%2").arg(dir, m_suiteProblems.value(dir)));
            return refuse(tr("Loading %1…").arg(QFileInfo(dir).fileName()));
        }
        RunPlan plan;
        plan.suite = suite;
        plan.models = models;
        plan.strategies = strategies;
        plan.repeats = m_repeats->value();
        plan.options = options;
        out << plan;
    }
    return out;
}

QString LaunchDialog::problemText() const
{
    return m_problem->text();
}

void LaunchDialog::updateState()
{
    QString error;
    const bool ready = !plans(&error).isEmpty();
    m_start->setEnabled(ready);
    m_start->setToolTip(ready ? tr("Creates the runs in the workspace and starts sending") : error);
    m_problem->setText(!m_startError.isEmpty() ? m_startError : ready ? QString() : error);

    const QListWidgetItem* current = m_modelList->currentItem();
    const auto currentSpec = current ? parseModelSpec(current->data(kSpecRole).toString()) : std::nullopt;
    m_removeProfile->setEnabled(currentSpec && !currentSpec->isSimulated());
    m_removeProfile->setToolTip(!currentSpec ? tr("Select a profile in the list to remove it")
            : currentSpec->isSimulated()     ? tr("The simulated models are always listed")
                                             : tr("Removes %1 from the list").arg(currentSpec->label()));
    showEstimate();
}

void LaunchDialog::accept()
{
    QString error;
    const QList<RunPlan> runPlans = plans(&error);
    if (runPlans.isEmpty()) {
        m_problem->setText(error);
        return;
    }
    if (m_starter && !m_starter(runPlans, &error)) {
        m_startError = tr("Cannot start: %1").arg(error);
        m_problem->setText(m_startError);
        return;
    }
    QDialog::accept();
}

} // namespace structscope
