# Runs the real libraries' retry code on our exports (tests/it/target_versions.rs): Sidekiq's
# own JobRetry#delay_for and Active Job's own retry_on / determine_delay, as installed from
# Debian (ruby-sidekiq 6.4.1, ruby-activejob 6.1.7), compute the waits of the job class each
# export defines.
#
#   ruby run_ruby_retries.rb CASES.json > RESULTS.json
#
# CASES.json: [{"name", "library": "sidekiq" | "active-job", "file": "x.rb", "class",
#               "retries", "draws", "permanent": "ArgumentError" | null}]
# Each result: {"name", "versions": {library: version}, "min": [...], "max": [...], "mean": [...]}
# per retry (seconds), "min" / "max" with Kernel#rand (and Kernel.rand) stubbed to their lowest
# / highest value, "mean" over "draws" runs with the seeded generator; or "error": the message
# the library raised on the first retry. "permanent": also raise that error class once and
# report what happened ("permanent_outcome").
require "json"
require "logger"
require "timeout"

$mode = :real
$rng = Random.new(20_261_203)
HIGH = 1.0 - 1e-12

def stubbed_rand(max = nil)
  case $mode
  when :min then max.nil? || max == 0 ? 0.0 : (max.is_a?(Float) ? 0.0 : 0)
  when :max then max.nil? || max == 0 ? HIGH : (max.is_a?(Float) ? max * HIGH : max - 1)
  else max.nil? || max == 0 ? $rng.rand : $rng.rand(max)
  end
end

module Kernel
  private

  def rand(max = nil) = stubbed_rand(max)
end

Kernel.define_singleton_method(:rand) { |max = nil| stubbed_rand(max) }

cases = JSON.parse(File.read(ARGV.fetch(0)))
libraries = cases.map { |c| c["library"] }.uniq
versions = {}
if libraries.include?("sidekiq")
  require "sidekiq"
  require "sidekiq/job_retry"
  Sidekiq.logger = Logger.new(nil)
  versions["sidekiq"] = Sidekiq::VERSION
  # The Dead set without Redis (its constructor counts the set's jobs there): what is killed
  # is kept here.
  $killed = []
  Sidekiq::DeadSet.class_eval do
    def initialize = nil
    def kill(message, _opts = {}) = $killed << message
  end
end
if libraries.include?("active-job")
  require "active_job"
  ActiveJob::Base.logger = Logger.new(nil)
  versions["active-job"] = ActiveJob.version.to_s
  # What the exports' Rails configuration block needs, without an application.
  module Rails
    App = Struct.new(:unused) do
      def configure = nil
    end
    def self.application = App.new
  end
  class ApplicationJob < ActiveJob::Base; end
end

# One failure and the retry's wait, by the library's own code.
def sidekiq_waits(klass, retries)
  worker = klass.new
  retrier = Sidekiq::JobRetry.new
  (0...retries).map { |count| retrier.send(:delay_for, worker, count, Timeout::Error.new("x")).to_f }
end

def active_job_waits(klass, retries)
  job = klass.new(1)
  waits = []
  job.define_singleton_method(:perform) { |*_| raise Timeout::Error, "x" }
  job.define_singleton_method(:retry_job) { |options = {}| waits << options[:wait].to_f }
  retries.times { job.perform_now }
  waits
end

def waits(c, klass)
  c["library"] == "sidekiq" ? sidekiq_waits(klass, c["retries"]) : active_job_waits(klass, c["retries"])
end

def permanent_outcome(c, klass)
  error = Object.const_get(c["permanent"])
  if c["library"] == "sidekiq"
    exhausted = []
    klass.sidekiq_retries_exhausted_block = ->(job, e) { exhausted << [job["class"], e.class.name] }
    worker = klass.new
    worker.jid = "jid-1"
    worker.define_singleton_method(:work) { |*_| raise error, "permanent" }
    $killed.clear
    begin
      worker.perform(1)
      outcome = { "raised" => nil }
    rescue Exception => e
      outcome = { "raised" => e.class.name }
    end
    outcome.merge("exhausted" => exhausted, "dead" => $killed.map { |m| JSON.parse(m)["error_class"] })
  end
end

results = cases.map do |c|
  load c["file"]
  klass = Object.const_get(c["class"])
  out = { "name" => c["name"], "versions" => versions }
  begin
    $mode = :min
    out["min"] = waits(c, klass)
    $mode = :max
    out["max"] = waits(c, klass)
    $mode = :real
    runs = Array.new(c["draws"]) { waits(c, klass) }
    out["mean"] = runs.transpose.map { |ws| ws.sum / ws.size }
  rescue StandardError => e
    out["error"] = "#{e.class}: #{e.message}"
  end
  $mode = :real
  out["permanent_outcome"] = permanent_outcome(c, klass) if c["permanent"]
  out
end
puts JSON.generate(results)
