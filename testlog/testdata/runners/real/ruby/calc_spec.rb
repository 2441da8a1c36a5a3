RSpec.describe "Calc" do
  it("adds") { expect(1 + 1).to eq 2 }
  it("fails") { expect(1 + 1).to eq 3 }
  it("pends") { pending "later"; expect(1).to eq 2 }
  it("skips") { skip "no" }
  context "nested - deeper" do
    it("errors") { raise "boom" }
  end
end
